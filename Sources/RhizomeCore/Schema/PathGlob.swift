/// A vault-relative path pattern: `*` is any run of characters except `/`, `**` any run including `/`
/// (`Projects/**`, `**/SKILL.md`), `?` one character other than `/`. Patterns match whole paths.
public struct PathGlob: Sendable, Hashable, CustomStringConvertible {
    public let pattern: String
    private let tokens: [Token]

    public init(_ pattern: String) {
        self.pattern = pattern
        // Vault paths are NFC; a pattern typed on macOS may arrive in NFD.
        self.tokens = Self.tokenize(UnicodeNormalization.nfc(pattern))
    }

    public var description: String { pattern }

    /// Whether `path` (vault-relative, `/`-separated) matches the whole pattern.
    /// `path` is compared in NFC, as the vault scanner stores paths.
    public func matches(_ path: String) -> Bool {
        Self.match(tokens[...], Array(path.unicodeScalars)[...])
    }

    // MARK: Matching

    private enum Token: Hashable {
        case literal(Unicode.Scalar)
        case anyInSegment      // *
        case anyAcrossSegments // **
        case anyFolders        // **/ : zero or more whole folders
        case anyOneCharacter   // ?
    }

    private static func tokenize(_ pattern: String) -> [Token] {
        var tokens: [Token] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "*" {
                if index + 1 < scalars.count, scalars[index + 1] == "*" {
                    index += 2
                    // `**/` also matches zero folders: `**/SKILL.md` matches `SKILL.md`.
                    if index < scalars.count, scalars[index] == "/" {
                        index += 1
                        tokens.append(.anyFolders)
                    } else {
                        tokens.append(.anyAcrossSegments)
                    }
                    continue
                }
                tokens.append(.anyInSegment)
            } else if scalar == "?" {
                tokens.append(.anyOneCharacter)
            } else {
                tokens.append(.literal(scalar))
            }
            index += 1
        }
        return tokens
    }

    /// Backtracking match; patterns are short, so the cost is small.
    private static func match(_ pattern: ArraySlice<Token>, _ text: ArraySlice<Unicode.Scalar>) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        let rest = pattern.dropFirst()
        switch first {
        case .literal(let scalar):
            return text.first == scalar && match(rest, text.dropFirst())
        case .anyOneCharacter:
            guard let character = text.first, character != "/" else { return false }
            return match(rest, text.dropFirst())
        case .anyInSegment:
            var remaining = text
            while true {
                if match(rest, remaining) { return true }
                guard let character = remaining.first, character != "/" else { return false }
                remaining = remaining.dropFirst()
            }
        case .anyFolders:
            if match(rest, text) { return true }
            var remaining = text
            while let slash = remaining.firstIndex(of: "/") {
                remaining = remaining[(slash + 1)...]
                if match(rest, remaining) { return true }
            }
            return false
        case .anyAcrossSegments:
            var remaining = text
            while true {
                if match(rest, remaining) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        }
    }
}

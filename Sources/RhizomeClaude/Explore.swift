import Foundation

/// `explore`: a question answered from numbered note excerpts by a fast, cheap model.
public enum Explore {
    public static let defaultModel = "claude-haiku-4-5"
    public static let defaultMaxTokens = 512
    public static let defaultTemperature = 0.3
    /// Excerpts are trimmed so that the prompt stays within about this many tokens.
    public static let defaultContextTokens = 6_000

    public static let systemPrompt = """
        You answer questions about the user's own notes, using only the numbered excerpts you are given. \
        Answer in 2 to 4 sentences. Cite the excerpts you rely on as [n], right after the claim they support, \
        using only the numbers given. If the excerpts do not answer the question, say so in one sentence.
        """

    /// The system prompt of the short call that turns a question written in Chinese, Japanese or Korean
    /// into English search words before the notes are picked (`explore --translate`).
    public static let translationPrompt = """
        Rewrite the user's question as English search keywords for finding the right page in an English help vault \
        or notes folder: translate its meaning (not word for word), name the feature or concept it is about in the \
        words such a page would use, and add one or two likely synonyms. Output only the keywords, separated by \
        spaces, on one line, at most 15 words. Keep product names, file names and English words from the question \
        as they are.
        """
    public static let translationMaxTokens = 80

    /// The search words of a translation's reply: its first non-empty line that is not a label
    /// (`Keywords:`), at most 300 characters.
    public static func searchWords(ofTranslation reply: String) -> String {
        let lines = reply.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let line = lines.first { !$0.hasSuffix(":") } ?? ""
        return String(line.prefix(300))
    }

    /// A note offered to the model as `[n] excerpt (date)`.
    public struct ContextNote: Sendable, Encodable, Equatable {
        public var number: Int
        public var path: String
        /// The name a wikilink to it uses (the file name without `.md`).
        public var name: String
        /// `YYYY-MM-DD`.
        public var date: String
        public var excerpt: String

        public init(number: Int, path: String, name: String, date: String, excerpt: String) {
            self.number = number
            self.path = path
            self.name = name
            self.date = date
            self.excerpt = excerpt
        }
    }

    /// The user message: the numbered excerpts, then the question. Notes are added in order while the
    /// estimated size stays within `tokenBudget`; each excerpt is cut to its share of the budget.
    public static func prompt(question: String, notes: [(path: String, name: String, date: String, body: String)], tokenBudget: Int = defaultContextTokens)
        -> (text: String, included: [ContextNote]) {
        let perNote = max(50, tokenBudget / max(1, min(notes.count, 20)))  // tokens
        var included: [ContextNote] = []
        var text = "Excerpts from my notes:\n\n"
        for note in notes.prefix(20) {
            let excerpt = Self.excerpt(note.body, tokens: perNote)
            guard !excerpt.isEmpty else { continue }
            let entry = "[\(included.count + 1)] \(note.name): \(excerpt) (\(note.date))\n\n"
            if estimatedTokens(text + entry) > tokenBudget && !included.isEmpty { break }
            text += entry
            included.append(ContextNote(number: included.count + 1, path: note.path, name: note.name, date: note.date, excerpt: excerpt))
        }
        text += "Question: \(question)"
        return (text, included)
    }

    /// About 4 characters a token for alphabetic text and one for each Chinese, Japanese or Korean character
    /// (or other wide script): good enough for a budget and a cost estimate (the API reports the real count).
    public static func estimatedTokens(_ text: String) -> Int {
        var narrow = 0
        var wide = 0
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x2E80 { wide += 1 } else { narrow += 1 }
        }
        return (narrow + 3) / 4 + wide
    }

    /// The body on one line, without markdown clutter, cut at a word boundary to about `tokens` tokens.
    static func excerpt(_ body: String, tokens: Int) -> String {
        var lines: [Substring] = []
        var inCode = false
        for line in body.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") { inCode.toggle(); continue }
            if inCode || trimmed.isEmpty || trimmed.hasPrefix("%%") { continue }
            lines.append(Substring(trimmed))
        }
        let flat = lines.joined(separator: " ")
        guard estimatedTokens(flat) > tokens else { return flat }
        // Quarter tokens: a narrow character is one, a wide one (CJK) four.
        var budget = tokens * 4
        var end = flat.startIndex
        while end < flat.endIndex {
            let cost = flat[end].unicodeScalars.first.map { $0.value >= 0x2E80 ? 4 : 1 } ?? 1
            if budget < cost { break }
            budget -= cost
            end = flat.index(after: end)
        }
        let cut = flat[..<end]
        // At a space when there is one in the last quarter (CJK text has none): a whole word is kept.
        if let space = cut.lastIndex(of: " "), cut.distance(from: space, to: cut.endIndex) < cut.count / 4 { return String(cut[..<space]) + " …" }
        return String(cut) + " …"
    }
}

/// Turns the model's `[n]` citations into `[[wikilinks]]` as the text streams: a `[` is held back until
/// its number and `]` have arrived (they may come in different pieces). Numbers with no note, and
/// brackets that hold anything but a number, pass through unchanged.
public struct CitationRewriter: Sendable {
    private let links: [Int: String]
    private var held = ""
    public private(set) var cited: [Int] = []

    /// `links`: citation number → the wikilink target (a note name or path).
    public init(links: [Int: String]) {
        self.links = links
    }

    /// The text that can be shown now.
    public mutating func feed(_ piece: String) -> String {
        var output = ""
        for character in piece {
            if held.isEmpty {
                if character == "[" { held = "[" } else { output.append(character) }
                continue
            }
            held.append(character)
            if character == "]" {
                let number = Int(held.dropFirst().dropLast())
                if let number, let target = links[number] {
                    output += "[[\(target)]]"
                    if !cited.contains(number) { cited.append(number) }
                } else {
                    output += held
                }
                held = ""
            } else if !character.isNumber || held.count > 6 {
                // Not a citation: `[` followed by something else. Re-read the rest after the `[`.
                let rest = String(held.dropFirst())
                held = ""
                output += "[" + feed(rest)
            }
        }
        return output
    }

    /// What is still held back when the text ends.
    public mutating func finish() -> String {
        defer { held = "" }
        return held
    }
}

/// Prices in US dollars per million tokens (input, output), for estimates and the usage ledger. Cache
/// writes cost 1.25 times the input price and cache reads 0.1 times (Anthropic's rates for the
/// five-minute cache).
public enum ModelPrices {
    public static let perMillionTokens: [String: (input: Double, output: Double)] = [
        "claude-haiku-4-5": (1.00, 5.00),
        "claude-sonnet-4-6": (3.00, 15.00),
        "claude-sonnet-4-5": (3.00, 15.00),
        "claude-sonnet-4": (3.00, 15.00),
        "claude-opus-4-5": (5.00, 25.00),
        "claude-opus-4-1": (15.00, 75.00),
        "claude-opus-4": (15.00, 75.00),
    ]
    static let cacheWriteFactor = 1.25
    static let cacheReadFactor = 0.1

    /// What a call cost, and how its price was found.
    public struct Cost: Sendable, Equatable {
        public enum Basis: String, Sendable, Codable {
            /// The model's own price (built in, or under `claude: prices:`), or a dated id of it.
            case listed
            /// Not known: the highest price of its family (`opus`, `sonnet`, `haiku` in its name).
            case family
            /// Not known, and of no known family: the highest price known.
            case highestKnown = "highest-known"
        }
        public var usd: Double
        public var basis: Basis
        /// Whether the price was guessed (a model not in the table): never less than the family's dearest.
        public var isEstimate: Bool { basis != .listed }
    }

    /// The cost of a call. A model not in the table (or `configured`) is priced as its family's dearest
    /// member, else at the highest price known, so that a budget never counts it as free.
    public static func cost(
        model: String, inputTokens: Int, outputTokens: Int, cacheCreationInputTokens: Int = 0, cacheReadInputTokens: Int = 0,
        configured: [String: (input: Double, output: Double)] = [:]
    ) -> Cost {
        let (price, basis) = self.price(of: model, configured: configured)
        let input = Double(inputTokens) + Double(cacheCreationInputTokens) * cacheWriteFactor + Double(cacheReadInputTokens) * cacheReadFactor
        return Cost(usd: (input * price.input + Double(outputTokens) * price.output) / 1_000_000, basis: basis)
    }

    /// The price of `model`: its own, that of the listed id it is a dated form of
    /// (`claude-haiku-4-5-20251001`), its family's dearest, or the dearest of all.
    static func price(of model: String, configured: [String: (input: Double, output: Double)]) -> ((input: Double, output: Double), Cost.Basis) {
        let table = perMillionTokens.merging(configured) { $1 }
        if let own = table[model] { return (own, .listed) }
        // A dated id: the listed id, a dash and eight digits (`claude-opus-4-6` is not `claude-opus-4` dated).
        let undated = model.count > 9 && model.suffix(9).first == "-" && model.suffix(8).allSatisfy { ("0"..."9").contains($0) } ? String(model.dropLast(9)) : nil
        if let undated, let own = table[undated] { return (own, .listed) }
        let dearest = { (prices: [(input: Double, output: Double)]) in prices.max { ($0.output, $0.input) < ($1.output, $1.input) } }
        let lowered = model.lowercased()
        for family in ["opus", "sonnet", "haiku"] where lowered.contains(family) {
            if let price = dearest(table.filter { $0.key.contains(family) }.map(\.value)) { return (price, .family) }
        }
        return (dearest(Array(table.values)) ?? (15, 75), .highestKnown)
    }
}

/// Where the API key comes from: `ANTHROPIC_API_KEY`, else (macOS) the Keychain item with service
/// `rhizome` and account `anthropic`.
public enum APIKey {
    public static func resolve(environment: [String: String]) -> String? {
        if let key = environment["ANTHROPIC_API_KEY"]?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty { return key }
        #if os(macOS)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/security")
        process.arguments = ["find-generic-password", "-s", "rhizome", "-a", "anthropic", "-w"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let key = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return key.isEmpty ? nil : key
        #else
        return nil
        #endif
    }

    /// `ANTHROPIC_BASE_URL`, default `https://api.anthropic.com`; nil when it is set but not an http(s) URL.
    public static func baseURL(environment: [String: String]) -> URL? {
        guard let text = environment["ANTHROPIC_BASE_URL"]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return URL(string: "https://api.anthropic.com")!
        }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else { return nil }
        return url
    }
}

import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every call to Claude, recorded locally: one JSON line per call in `usage.jsonl` in the user's data
/// folder (`$XDG_DATA_HOME/rhizome` or `~/.local/share/rhizome` on Linux, `~/Library/Application
/// Support/Rhizome` on macOS; `RHIZOME_USAGE_LEDGER` names another file). It holds no prompt, no answer
/// and no key: time, feature, model, vault, tokens and the estimated cost.
public struct UsageLedger: Sendable {
    public struct Entry: Codable, Sendable, Equatable {
        /// ISO 8601, UTC.
        public var time: String
        /// `explore` or `reflect`.
        public var feature: String
        public var model: String
        public var vault: String
        public var inputTokens: Int
        public var outputTokens: Int
        public var cacheReadInputTokens: Int
        public var cacheCreationInputTokens: Int
        /// nil when the model had no known price (entries written before unknown models were estimated).
        public var costUSD: Double?
        /// How the cost was found: `listed`, `family` or `highest-known` (`ModelPrices.Cost.Basis`; the
        /// last two are estimates), `reported` (the Claude Code CLI's own figure); nil in older entries.
        public var priceBasis: String?
        /// True for a call that ended without an answer (interrupted, cancelled, failed) but may have been
        /// billed: its tokens are those counted so far. Absent otherwise.
        public var incomplete: Bool?

        /// Whether the cost was estimated for a model without a known price.
        public var isEstimate: Bool { priceBasis == "family" || priceBasis == "highest-known" }

        public init(
            time: Date, feature: String, model: String, vault: String, usage: MessagesAPI.Usage, costUSD: Double?, priceBasis: String? = nil,
            incomplete: Bool? = nil
        ) {
            self.time = ISO8601DateFormatter().string(from: time)
            self.feature = feature
            self.model = model
            self.vault = vault
            inputTokens = usage.inputTokens ?? 0
            outputTokens = usage.outputTokens ?? 0
            cacheReadInputTokens = usage.cacheReadInputTokens ?? 0
            cacheCreationInputTokens = usage.cacheCreationInputTokens ?? 0
            self.costUSD = costUSD
            self.priceBasis = priceBasis
            self.incomplete = incomplete
        }
    }

    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The ledger for this user (see the type's description).
    public static func standard(environment: [String: String]) -> UsageLedger {
        if let path = environment["RHIZOME_USAGE_LEDGER"], !path.isEmpty { return UsageLedger(path: path) }
        let home = environment["HOME"] ?? NSHomeDirectory()
        #if os(macOS)
        let folder = home + "/Library/Application Support/Rhizome"
        #else
        let folder = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 + "/rhizome" } ?? home + "/.local/share/rhizome"
        #endif
        return UsageLedger(path: folder + "/usage.jsonl")
    }

    /// Appends one entry: a single `write` of one line to a file opened for appending, so concurrent
    /// calls never interleave and a crash leaves at most the last line incomplete (skipped when read).
    public func record(_ entry: Entry) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var line = try encoder.encode(entry)
        line.append(UInt8(ascii: "\n"))
        let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw LedgerError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        // A line torn by a crash must not swallow this one: start on a line of its own.
        var last: UInt8 = 0
        let size = lseek(descriptor, 0, SEEK_END)
        if size > 0, pread(descriptor, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") { line.insert(UInt8(ascii: "\n"), at: 0) }
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == line.count else { throw LedgerError.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Every readable entry, oldest first (lines that are not entries are skipped).
    public func entries() -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(Entry.self, from: Data($0)) }
    }

    /// The cost of the entries in the month `YYYY-MM` (UTC).
    public func spent(inMonth month: String) -> Double {
        entries().filter { $0.time.hasPrefix(month) }.compactMap(\.costUSD).reduce(0, +)
    }

    /// The ledger cannot be written (a call's cost is then shown as a warning, not recorded).
    public enum LedgerError: ExplainedError {
        case cannotWrite(path: String, reason: String)

        public var code: String { "ledger-unwritable" }
        public var isUserMistake: Bool { true }

        public var message: ErrorMessage {
            switch self {
            case .cannotWrite(let path, let reason):
                return ErrorMessage("cannot record the call's usage in \(path) (\(reason))", "; ", "set RHIZOME_USAGE_LEDGER to a writable file")
            }
        }
    }
}

import Foundation
import RhizomeCore
import RhizomeStore
import RhizomeTestSupport

/// An indexed copy of a vault (Vault-Example by default) to run Dataview queries on, with `date(today)`
/// fixed, and results read back as short text for assertions.
struct DataviewVault {
    let vault: TemporaryVault
    let store: IndexStore

    /// What `date(now)` is in these tests: Sunday 22 November 2026, noon (the vault's last daily note).
    static let now = DataviewDate(year: 2026, month: 11, day: 22, hour: 12, hasTime: true)

    /// Copies `source`, lets `prepare` add or change files in the copy, then indexes it.
    init(copying source: URL = Fixtures.vaultExample, prepare: (TemporaryVault) throws -> Void = { _ in }) throws {
        vault = try TemporaryVault(copying: source)
        try prepare(vault)
        try vault.index()
        store = try vault.store()
        // As the CLI does: file.lists, file.tasks and file.ctime are read from the vault's files.
        try store.setIndexedVaultPath(vault.path)
    }

    /// Indexes a vault the test wrote itself.
    init(indexing vault: TemporaryVault) throws {
        self.vault = vault
        try vault.index()
        store = try vault.store()
        try store.setIndexedVaultPath(vault.path)
    }

    func run(_ query: String, in origin: String? = nil) throws -> DataviewResult {
        try store.runDataview(DataviewParser.parse(query), origin: origin, now: Self.now)
    }

    /// Each row as text: the id (unless `WITHOUT ID`), then the values.
    func rows(_ query: String, in origin: String? = nil) throws -> [[String]] {
        try run(query, in: origin).textRows
    }

    /// The vault paths of the rows' page links, in result order.
    func paths(_ query: String, in origin: String? = nil) throws -> [String] {
        try run(query, in: origin).rows.map { row in row.id.map(brief) ?? "<no id>" }
    }

    /// The message of the error the query fails with, or nil if it runs.
    func failure(_ query: String, in origin: String? = nil) -> String? {
        do {
            _ = try run(query, in: origin)
            return nil
        } catch let error as DataviewError {
            return error.diagnostic
        } catch {
            return "\(error)"
        }
    }
}

extension DataviewResult {
    var textRows: [[String]] {
        self.rows.map { row in (row.id.map { [brief($0)] } ?? []) + row.values.map(brief) }
    }

    /// The values of one column (by header), as text.
    func column(_ name: String) -> [String] {
        guard let index = self.columns.firstIndex(of: name) else { return ["<no column \(name)>"] }
        return textRows.map { index < $0.count ? $0[index] : "<short row>" }
    }
}

/// A value as short text: links as their vault path (`#subpath` kept), dates in ISO form, lists in
/// brackets, objects in braces, null as `-`.
func brief(_ value: DataviewValue) -> String {
    switch value {
    case .null: return "-"
    case .link(let link): return link.path + (link.subpath.map { "#" + $0 } ?? "")
    case .date(let date): return date.isoText
    case .list(let items): return "[" + items.map(brief).joined(separator: ", ") + "]"
    case .object(let object): return "{" + object.pairs.map { "\($0.key): \(brief($0.value))" }.joined(separator: ", ") + "}"
    default: return DataviewText.plain(value)
    }
}

/// The notes of Vault-Example, by folder, as the tests name them.
enum VaultExampleNotes {
    static let daily = (16...22).map { "Daily/2026-11-\($0).md" }
    static let reading = [
        "Reading/A Philosophy of Software Design.md", "Reading/Designing Data-Intensive Applications.md",
        "Reading/How to Take Smart Notes.md", "Reading/SQLite FTS5 docs.md",
    ]
    static let rhizomePlans = [
        "Projects/Rhizome/Plans/Plan - Incremental indexing.md", "Projects/Rhizome/Plans/Plan - Initial indexer.md",
        "Projects/Rhizome/Plans/Plan - MCP server.md", "Projects/Rhizome/Plans/Plan - Schema validation.md",
    ]
    static let noteCount = 60
}

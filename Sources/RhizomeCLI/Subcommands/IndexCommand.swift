import ArgumentParser
import RhizomeCore
import RhizomeStore

/// `rhizome index`: bring the index up to date and say what changed.
struct IndexCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Index the vault (incrementally: only files whose size or modification time changed are re-read).")

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Re-read every file, as after an upgrade.")
    var rebuild = false

    @Flag(name: .long, help: "Print every problem the walk met, not only those new since the last run.")
    var verbose = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        var options = global
        options.noRefresh = false
        let session = try VaultSession.open(options, context: context, rebuild: rebuild, writes: true)
        guard let report = session.refreshReport else { return .success }
        if global.json {
            printJSON(IndexOutput(report: report, database: session.databasePath), vault: session.vaultPath, context: context)
            return .success
        }
        context.print("Indexed \(session.vaultPath) in \(Int(report.milliseconds.rounded())) ms")
        context.print("  added \(report.added.grouped) · modified \(report.modified.grouped) · removed \(report.removed.grouped) · unchanged \(report.unchanged.grouped)")
        let references = report.referenceEdges > 0 ? " · \(report.referenceEdges.grouped) reference edge\(report.referenceEdges == 1 ? "" : "s")" : ""
        context.print("  \(Self.count(report.notes, "note")), \(Self.count(report.files, "file")) · \(Self.count(report.links, "link")) (\(report.unresolvedLinks.grouped) unresolved)\(references) · \(Self.count(report.findingsTotal, "finding"))")
        if report.relinked > 0 {
            context.print("  \(Self.count(report.relinked, "link")) in unchanged notes now \(report.relinked == 1 ? "resolves" : "resolve") differently")
        }
        if report.findingsTotal > 0 { context.print("  see the findings with `rhizome findings`") }
        // Problems already reported by an earlier run are not repeated on every run (`--verbose` prints them).
        let shown = verbose || rebuild ? report.findings : report.newFindings
        for finding in shown.prefix(20) { context.printError(finding.diagnosticDescription) }
        if shown.count > 20 { context.printError("… and \(shown.count - 20) more: run `rhizome findings`") }
        return .success
    }

    /// `1 note`, `2 notes`, `1,000 notes`.
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number.grouped) \(noun)\(number == 1 ? "" : "s")"
    }
}

private struct IndexOutput: Encodable {
    var report: IndexReport
    var database: String

    enum CodingKeys: String, CodingKey {
        case added, modified, removed, unchanged, notes, files, links, unresolvedLinks, relinked, referenceEdges, findingsTotal, milliseconds, findings, database
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(report.added, forKey: .added)
        try container.encode(report.modified, forKey: .modified)
        try container.encode(report.removed, forKey: .removed)
        try container.encode(report.unchanged, forKey: .unchanged)
        try container.encode(report.notes, forKey: .notes)
        try container.encode(report.files, forKey: .files)
        try container.encode(report.links, forKey: .links)
        try container.encode(report.unresolvedLinks, forKey: .unresolvedLinks)
        try container.encode(report.relinked, forKey: .relinked)
        try container.encode(report.referenceEdges, forKey: .referenceEdges)
        try container.encode(report.findingsTotal, forKey: .findingsTotal)
        try container.encode((report.milliseconds * 10).rounded() / 10, forKey: .milliseconds)
        try container.encode(report.findings, forKey: .findings)
        try container.encode(database, forKey: .database)
    }
}

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

/// `rhizome index --json`: the run's counts and findings (not the findings already reported by earlier
/// runs, nor whether it walked the vault), the time to a tenth of a millisecond, and the index file.
private struct IndexOutput: Encodable {
    var added, modified, removed, unchanged: Int
    var notes, files, links, unresolvedLinks, relinked, referenceEdges, findingsTotal: Int
    var milliseconds: Double
    var findings: [Finding]
    var database: String

    init(report: IndexReport, database: String) {
        (added, modified, removed, unchanged) = (report.added, report.modified, report.removed, report.unchanged)
        (notes, files, links, unresolvedLinks) = (report.notes, report.files, report.links, report.unresolvedLinks)
        (relinked, referenceEdges, findingsTotal) = (report.relinked, report.referenceEdges, report.findingsTotal)
        milliseconds = (report.milliseconds * 10).rounded() / 10
        findings = report.findings
        self.database = database
    }
}

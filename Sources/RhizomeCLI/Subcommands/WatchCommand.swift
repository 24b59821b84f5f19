import ArgumentParser
import Dispatch
import Foundation
import RhizomeCore
import RhizomeStore
import RhizomeWatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rhizome watch`: keep the index current as the vault changes, until Ctrl-C.
struct WatchCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep the index current as files change (runs until Ctrl-C; one line per applied batch).",
        discussion: """
            Brings the index up to date, then applies each burst of changes within milliseconds: saves, editors' \
            atomic saves, renames, moved and deleted folders, git checkouts (coalesced into one batch), and edits \
            to the targets of symlinks made by `rhizome link`. Any number of other rhizome commands may query \
            meanwhile; a second watcher of the same index is refused. With --json each line is a JSON envelope \
            whose data.event is ready, batch, failed, vault-missing, vault-replaced, settling or stopped.

            It follows the vault path: a vault folder deleted or moved away leaves the index as it was until a \
            folder is back; a folder copied, moved or linked into its place is watched and walked once quiet.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var watching: WatchOptions

    func validate() throws {
        if global.noRefresh { throw ValidationError("--no-refresh makes no sense for watch: it keeps the index current") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let (vaultPath, databasePath) = try VaultSession.locate(global, context: context)
        // A change a killed command left half done (and its temporary files) is finished first, as every
        // other command does, not left pending while the vault is watched.
        VaultSession.recoverInterruptedChange(vaultPath: vaultPath, databasePath: databasePath, context: context)
        let options = watching.watcherOptions(vault: vaultPath, database: databasePath)
        let watcher = try VaultWatcher(vaultPath: vaultPath, databasePath: databasePath, options: options)
        let signals = StopSignals({ watcher.stop() }, context: global.json ? nil : context)
        defer { signals.cancel() }
        let printer = WatchLogPrinter(context: context, json: global.json, vault: vaultPath)
        if !global.json { context.printError("Watching \(vaultPath) (index \(databasePath)). Ctrl-C to stop.") }
        try watcher.run(log: printer.print)
        return .success
    }
}

/// One line per watch event: text for people, or a compact JSON envelope per line.
struct WatchLogPrinter: Sendable {
    let context: CommandContext
    let json: Bool
    let vault: String

    func print(_ event: WatchEvent) {
        if json {
            context.print(JSONOutput.encode(JSONOutput.Envelope(command: "watch", vault: vault, data: WatchLogLine(event)), pretty: false))
            return
        }
        let time = Self.timeFormatter.string(from: Date())
        switch event {
        case .ready(let report):
            context.print("\(time)  ready · \(report.notes.grouped) notes · \(report.links.grouped) links (\(report.unresolvedLinks.grouped) unresolved) · "
                + "added \(report.added.grouped), modified \(report.modified.grouped), removed \(report.removed.grouped) · \(Self.format(report.milliseconds))")
            for finding in report.findings.prefix(20) { context.printError(finding.diagnosticDescription) }
        case .batch(let batch):
            let report = batch.report
            var line = "\(time)  \(batch.changedPaths.grouped) path\(batch.changedPaths == 1 ? "" : "s") · +\(report.added) ~\(report.modified) -\(report.removed)"
            line += " · \(report.relinked.grouped) link\(report.relinked == 1 ? "" : "s") re-resolved · \(Self.format(batch.milliseconds))"
            if let reason = batch.reason { line += " · walked the vault: \(reason)" }
            context.print(line)
            for finding in report.findings.prefix(20) { context.printError(finding.diagnosticDescription) }
        case .failed(let message, let changedPaths):
            context.printError("\(time)  error: \(changedPaths) changed path\(changedPaths == 1 ? "" : "s") not applied: \(message). The next change tries again.")
        case .vaultMissing, .vaultReplaced, .settling:
            context.printError("\(time)  \(event.notice ?? "")")
        case .stopped:
            context.printError("\(time)  stopped")
        }
    }

    private static func format(_ milliseconds: Double) -> String {
        milliseconds < 10 ? String(format: "%.1f ms", milliseconds) : "\(Int(milliseconds.rounded()).grouped) ms"
    }

    private static let timeFormatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter
    }()
}

/// `rhizome watch --json`: `data` of each line. Every key is always present.
struct WatchLogLine: Encodable {
    var event: String
    var time: String
    @NullEncoded var changedPaths: Int? = nil
    @NullEncoded var added: Int? = nil
    @NullEncoded var modified: Int? = nil
    @NullEncoded var removed: Int? = nil
    @NullEncoded var relinked: Int? = nil
    @NullEncoded var notes: Int? = nil
    @NullEncoded var links: Int? = nil
    @NullEncoded var unresolvedLinks: Int? = nil
    @NullEncoded var walkedVault: Bool? = nil
    @NullEncoded var reason: String? = nil
    @NullEncoded var milliseconds: Double? = nil
    @NullEncoded var waitedMilliseconds: Double? = nil
    var findings: [Finding]
    @NullEncoded var message: String? = nil

    init(_ event: WatchEvent) {
        time = ISO8601DateFormatter.withFractionalSeconds.string(from: Date())
        findings = []
        switch event {
        case .ready(let report):
            self.event = "ready"
            (added, modified, removed, relinked) = (report.added, report.modified, report.removed, report.relinked)
            (notes, links, unresolvedLinks) = (report.notes, report.links, report.unresolvedLinks)
            walkedVault = true
            milliseconds = Self.rounded(report.milliseconds)
            findings = report.findings
        case .batch(let batch):
            self.event = "batch"
            changedPaths = batch.changedPaths
            (added, modified, removed, relinked) = (batch.report.added, batch.report.modified, batch.report.removed, batch.report.relinked)
            walkedVault = batch.walkedVault
            reason = batch.reason
            milliseconds = Self.rounded(batch.milliseconds)
            waitedMilliseconds = Self.rounded(batch.waitedMilliseconds)
            findings = batch.report.findings
        case .failed(let message, let changedPaths):
            self.event = "failed"
            self.changedPaths = changedPaths
            self.message = message
        case .vaultMissing:
            self.event = "vault-missing"
            message = event.notice
        case .vaultReplaced:
            self.event = "vault-replaced"
            message = event.notice
        case .settling:
            self.event = "settling"
            message = event.notice
        case .stopped:
            self.event = "stopped"
        }
    }

    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    enum CodingKeys: String, CodingKey {
        case event, time, changedPaths, added, modified, removed, relinked, notes, links, unresolvedLinks, walkedVault, reason
        case milliseconds, waitedMilliseconds, findings, message
    }

}

extension ISO8601DateFormatter {
    nonisolated(unsafe) static let withFractionalSeconds: ISO8601DateFormatter = {  // configured once, then only formats: thread-safe, not marked Sendable
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
}

/// The first SIGINT or SIGTERM calls `stop` instead of killing the process, so that the watcher stops
/// between batches; a second one (a first index of a large vault can take a while) exits at once — the
/// index stays consistent either way (one transaction per batch).
final class StopSignals: @unchecked Sendable {  // `sources` is set in `init` and read only by `cancel`
    private var sources: [DispatchSourceSignal] = []
    private let received = Locked(0)

    init(_ stop: @escaping @Sendable () -> Void, context: CommandContext? = nil) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                let count = received.withLock { received -> Int in
                    received += 1
                    return received
                }
                if count > 1 { exit(128 + number) }
                context?.printError("stopping (press Ctrl-C again to quit at once)")
                stop()
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

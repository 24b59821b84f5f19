import ArgumentParser
import RhizomeCore
import RhizomeOperations

/// `rhizome undo`: reverses the last change Rhizome made to the vault, when none of its files changed
/// since. A dry run unless `--write`.
struct UndoCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Reverse the last change Rhizome made to the vault (dry run unless --write).",
        discussion: "Each undo reverses the newest change not undone yet. It refuses, changing nothing, when a file that change moved or wrote has changed since; `rhizome history` lists the changes.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Apply the change (default: show it).")
    var write = false

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context, writes: true)
        let editor = try session.editor()
        let plan = try editor.planUndo()
        let operation = write ? try editor.apply(plan) : nil
        if global.json {
            printJSON(UndoOutput(undoes: HistoryEntry(plan.original), written: operation != nil, operation: operation?.id, steps: plan.operation.steps.map(StepOutput.init)),
                      vault: session.vaultPath, context: context)
            return .success
        }
        for step in plan.operation.steps { context.print(StepOutput(step).description) }
        context.print(operation == nil
            ? "would undo: \(plan.original.summary). Nothing was changed: add --write to apply."
            : "undid: \(plan.original.summary).")
        return .success
    }
}

/// `rhizome history`: the changes Rhizome made to the vault, newest first.
struct HistoryCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the changes Rhizome made to the vault, newest first.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "How many to list.")
    var limit = 20

    func execute(in context: CommandContext) throws -> ExitStatus {
        let (vault, database) = try VaultSession.locate(global, context: context)
        let journal = OperationJournal(vaultPath: vault, databasePath: database)
        try journal.recover()
        let entries = journal.history(limit: max(0, limit)).map(HistoryEntry.init)
        if global.json {
            printJSON(entries, vault: vault, context: context)
            return .success
        }
        if entries.isEmpty { context.print("no changes recorded") }
        for entry in entries {
            context.print("\(entry.createdAt)  \(entry.summary)\(entry.state == "undone" ? "  (undone)" : "")")
        }
        return .success
    }
}

struct HistoryEntry: Encodable {
    var id: String
    var kind: String
    var summary: String
    var createdAt: String
    var state: String
    @NullEncoded var undoes: String?

    init(_ operation: VaultOperation) {
        id = operation.id
        kind = operation.kind
        summary = operation.summary
        createdAt = operation.createdAt
        state = operation.state.rawValue
        undoes = operation.undoes
    }

    private enum CodingKeys: String, CodingKey { case id, kind, summary, createdAt, state, undoes }

}

/// One journaled step, for people and for `--json`.
struct StepOutput: Encodable, CustomStringConvertible {
    var action: String
    var path: String
    @NullEncoded var to: String?

    init(_ step: VaultOperation.Step) {
        switch step {
        case .move(let from, let to): (action, path, self.to) = ("move", from, to)
        case .write(let path, _, _): (action, self.path, to) = ("restore", path, nil)
        }
    }

    var description: String { to.map { "\(path) → \($0)" } ?? "\(path): restore its earlier text" }

    private enum CodingKeys: String, CodingKey { case action, path, to }

}

struct UndoOutput: Encodable {
    var undoes: HistoryEntry
    var written: Bool
    @NullEncoded var operation: String?
    var steps: [StepOutput]

    private enum CodingKeys: String, CodingKey { case undoes, written, operation, steps }

}

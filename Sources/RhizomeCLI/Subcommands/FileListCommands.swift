import ArgumentParser
import RhizomeStore

/// `rhizome orphans`: notes nothing links to.
struct OrphansCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(commandName: "orphans", abstract: "List notes that no other file links to.")

    @OptionGroup var global: GlobalOptions

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        FileList.print(try session.store.orphans(), title: "orphan notes", command: self, session: session, context: context)
        return .success
    }
}

/// `rhizome deadends`: notes that link nowhere.
struct DeadendsCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(commandName: "deadends", abstract: "List notes with no outgoing links.")

    @OptionGroup var global: GlobalOptions

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        FileList.print(try session.store.deadEnds(), title: "dead-end notes", command: self, session: session, context: context)
        return .success
    }
}

enum FileList {
    static func print(_ files: [FileRecord], title: String, command: some RhizomeSubcommand, session: VaultSession, context: CommandContext) {
        if command.global.json {
            command.printJSON(files.map(\.path), vault: session.vaultPath, context: context)
            return
        }
        context.print("\(files.count) \(files.count == 1 ? String(title.dropLast()) : title)")
        for file in files { context.print("  " + file.path) }
    }
}

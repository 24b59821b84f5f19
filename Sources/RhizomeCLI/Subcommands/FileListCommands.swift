import ArgumentParser
import RhizomeStore

/// `rhizome orphans`: notes nothing links to.
struct OrphansCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(commandName: "orphans", abstract: "List notes that no other file links to.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var shaping: ListShaping

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let (shown, total) = try shaping.shape(try session.store.orphans(), path: \.path, store: session.store, sortBy: SortField.fileFields)
        shaping.print(shown.map(\.path), total: total, title: "orphan notes", command: self, session: session, context: context)
        return .success
    }
}

/// `rhizome deadends`: notes that link nowhere.
struct DeadendsCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(commandName: "deadends", abstract: "List notes with no outgoing links.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var shaping: ListShaping

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let (shown, total) = try shaping.shape(try session.store.deadEnds(), path: \.path, store: session.store, sortBy: SortField.fileFields)
        shaping.print(shown.map(\.path), total: total, title: "dead-end notes", command: self, session: session, context: context)
        return .success
    }
}

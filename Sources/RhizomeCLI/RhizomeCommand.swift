import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore
import RhizomeWatch
import RhizomeClaude

/// The `rhizome` command: a thin layer over RhizomeCore and RhizomeStore.
public struct RhizomeCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "rhizome",
        abstract: "Turn an Obsidian vault into a typed, queryable knowledge graph.",
        discussion: "Query commands bring the index up to date first (a fast no-change check) unless --no-refresh.",
        version: RhizomeVersion.current,
        subcommands: [
            IndexCommand.self, StatsCommand.self, NoteCommand.self, LinksCommand.self, BacklinksCommand.self,
            UnresolvedCommand.self, OrphansCommand.self, DeadendsCommand.self, TagsCommand.self, TasksCommand.self,
            PropertiesCommand.self, SearchCommand.self, OpenCommand.self, CompletionsCommand.self, NeighborsCommand.self, PathCommand.self, GraphCommand.self,
            SQLCommand.self, QueryCommand.self, BaseCommand.self, FindingsCommand.self, ValidateCommand.self, FixCommand.self, NewCommand.self,
            MoveCommand.self, TrashCommand.self, UndoCommand.self, HistoryCommand.self, AppendCommand.self, PrependCommand.self, SetCommand.self, UnsetCommand.self, TaskCommand.self, RenameHeadingCommand.self, DailyCommand.self,
            SchemaCommand.self, TypesCommand.self, ClaudeCommand.self, LinkCommand.self, UnlinkCommand.self, StatusCommand.self, InitCommand.self, WatchCommand.self, MCPCommand.self, ExploreCommand.self, ReflectCommand.self, UsageCommand.self,
        ])

    public init() {}
}

public enum RhizomeVersion {
    public static let current = "0.1.0"
}

/// A subcommand that runs against a `CommandContext` and returns an exit status.
protocol RhizomeSubcommand: ParsableCommand {
    var global: GlobalOptions { get }
    func execute(in context: CommandContext) throws -> ExitStatus
    /// Whether a terminal gets its output through a pager (`Pager`): the commands that list things.
    static var pagesOutput: Bool { get }
    /// The command's name in its JSON envelope (`claude status` for the group's `status`).
    static var name: String { get }
}

extension RhizomeSubcommand {
    static var pagesOutput: Bool { false }

    mutating func run() throws {
        let status = CLI.execute(self, context: .live())
        if status != .success { throw ExitCode(status.rawValue) }
    }

    static var name: String { configuration.commandName ?? "rhizome" }

    /// Prints `payload` in the JSON envelope.
    func printJSON<T: Encodable>(_ payload: T, vault: String?, context: CommandContext) {
        context.print(JSONOutput.encode(JSONOutput.Envelope(command: Self.name, vault: vault, data: payload)))
    }

    /// Prints a list cut to `payload` in the JSON envelope, with its `total` and whether it was `truncated`.
    func printJSON<T: Encodable>(_ payload: [T], total: Int, vault: String?, context: CommandContext, note: String? = nil) {
        context.print(JSONOutput.encode(JSONOutput.Envelope(
            command: Self.name, vault: vault, data: payload, total: total, truncated: total > payload.count, note: note)))
    }
}

/// Entry points: parse arguments, run, map errors to messages and exit statuses.
public enum CLI {
    /// Runs `rhizome` with `arguments` (without the program name); returns the exit status.
    public static func run(_ arguments: [String], context: CommandContext) -> Int32 {
        do {
            var command = try RhizomeCommand.parseAsRoot(keepingRulesAsText(placingGlobalOptionsAfterSubcommand(arguments)))
            if let subcommand = command as? any RhizomeSubcommand {
                return execute(subcommand, context: context).rawValue
            }
            if command is RhizomeCommand {
                context.print(RhizomeCommand.helpMessage())
                return ExitStatus.success.rawValue
            }
            try command.run()
            return ExitStatus.success.rawValue
        } catch {
            let message = RhizomeCommand.fullMessage(for: error)
            if RhizomeCommand.exitCode(for: error) == .success {
                context.print(message)
                return ExitStatus.success.rawValue
            }
            if arguments.contains("--json") {
                let names = Set(RhizomeCommand.configuration.subcommands.compactMap { $0.configuration.commandName })
                let command = arguments.first { names.contains($0) } ?? "rhizome"
                let detail = JSONOutput.ErrorEnvelope.Detail(code: "invalid-argument", message: RhizomeCommand.message(for: error))
                context.print(JSONOutput.encode(JSONOutput.ErrorEnvelope(command: command, error: detail)))
            }
            context.printError(message)
            return ExitStatus.usage.rawValue
        }
    }

    /// `rhizome append NOTE ---` adds a horizontal rule, but the argument parser refuses a word of three or
    /// more dashes as a malformed option before `append` sees it. For `append` and `prepend` such a word is
    /// marked as text here (`NoteEdit.ruleMark`) and unmarked by `NoteEdit.text`.
    static func keepingRulesAsText(_ arguments: [String]) -> [String] {
        guard let first = arguments.first, [AppendCommand.configuration.commandName, PrependCommand.configuration.commandName].contains(first) else { return arguments }
        return [first] + arguments.dropFirst().map { word in
            word.count >= 3 && word.allSatisfy({ $0 == "-" }) ? NoteEdit.ruleMark + word : word
        }
    }

    /// `rhizome --vault V stats` → `rhizome stats --vault V` (and `claude link --vault V`): global options may
    /// come before the subcommand.
    static func placingGlobalOptionsAfterSubcommand(_ arguments: [String]) -> [String] {
        let (leading, index) = globalOptions(in: arguments, from: 0)
        guard index < arguments.count, !arguments[index].hasPrefix("-") else { return arguments }
        // A command group (`claude link`): the options go after its subcommand, with any given between the
        // two (`claude --vault V link`); without a subcommand, the group's help.
        if arguments[index] == ClaudeCommand.configuration.commandName {
            // Stops at `--help`, or an option of no command: left for the parser to answer.
            let (between, next) = globalOptions(in: arguments, from: index + 1)
            guard !leading.isEmpty || !between.isEmpty else { return arguments }
            guard next < arguments.count, !arguments[next].hasPrefix("-") else { return [arguments[index]] + arguments[next...] }
            return [arguments[index], arguments[next]] + leading + between + arguments[(next + 1)...]
        }
        guard !leading.isEmpty else { return arguments }
        return [arguments[index]] + leading + arguments[(index + 1)...]
    }

    /// The global options (`--vault V`, `--db=D`, `--json`…) at `start` and after it, and where they end.
    private static func globalOptions(in arguments: [String], from start: Int) -> (options: [String], end: Int) {
        let valued: Set<String> = ["--vault", "--db"]
        let flags: Set<String> = ["--json", "--no-refresh", "--no-pager"]
        var options: [String] = []
        var index = start
        while index < arguments.count {
            let argument = arguments[index]
            let name = String(argument.split(separator: "=", maxSplits: 1).first ?? "")
            if valued.contains(argument), index + 1 < arguments.count {
                options += [argument, arguments[index + 1]]
                index += 2
            } else if flags.contains(argument) || (valued.contains(name) && argument.contains("=")) {
                options.append(argument)
                index += 1
            } else {
                break
            }
        }
        return (options, index)
    }

    static func execute(_ command: some RhizomeSubcommand, context: CommandContext) -> ExitStatus {
        let pager = type(of: command).pagesOutput && !command.global.noPager ? Pager.start(context: context) : nil
        defer { pager?.finish() }
        do {
            return try command.execute(in: context)
        } catch {
            let (code, message, fix, status) = describe(error)
            if command.global.json {
                context.print(JSONOutput.encode(JSONOutput.ErrorEnvelope(command: type(of: command).name, error: .init(code: code, message: message, fix: fix))))
            }
            context.printError("error: " + message)
            return status
        }
    }

    /// Every error Rhizome throws says its code, its message, how to fix it and whose it is
    /// (`RhizomeError`); anything else is a failure nobody foresaw.
    private static func describe(_ error: Error) -> (code: String, message: String, fix: String?, status: ExitStatus) {
        guard let error = error as? any RhizomeError else { return ("internal-error", "\(error)", nil, .internalFailure) }
        return (error.code, error.diagnostic, error.fix, error.isUserMistake ? .usage : .internalFailure)
    }
}

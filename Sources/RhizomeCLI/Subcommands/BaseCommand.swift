import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome base FILE`: evaluates an Obsidian base (`.base` file) over the index and prints a view as a
/// table, CSV, markdown or JSON; `--views` lists its views; `--note NOTE` runs the `base` code blocks and
/// `![[X.base#View]]` embeds of a note, with `this` = that note.
struct BaseCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a table a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "base",
        abstract: "Evaluate an Obsidian base (.base file or base block) and print a view's rows.",
        discussion: """
            Examples:
              rhizome base Books                      # the first view of Books.base
              rhizome base Books --view "To read" --json
              rhizome base Books --views              # its views, their layout and row counts
              rhizome base Related --this "Dune"      # `this` is the note Dune, as when embedded there
              rhizome base --note "Reading list"      # the note's base blocks and embedded bases
            What is supported and what is not: README, section Bases.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The .base file, resolved like a note (with or without .base).")
    var file: String?

    @Option(name: .long, help: "The view to show (default: the first, as Obsidian opens a base).")
    var view: String?

    @Option(name: .long, help: "The note `this` refers to (default: the base file itself).")
    var this: String?

    @Option(name: .long, help: "Run the base blocks and embedded bases of this note, with `this` = the note.")
    var note: String?

    @Flag(name: .long, help: "List the base's views with their layout and number of rows.")
    var views = false

    @Flag(name: .long, help: "Print CSV (what the table view shows).")
    var csv = false

    @Flag(name: .long, help: "Print a markdown table to paste into a note.")
    var markdown = false

    func validate() throws {
        if [csv, markdown, global.json].filter({ $0 }).count > 1 { throw ValidationError("choose one of --json, --csv and --markdown") }
        if views && view != nil { throw ValidationError("--views lists every view; leave out --view") }
        if (file == nil) == (note == nil) { throw ValidationError("give a .base FILE, or --note NOTE to run the bases in a note (not both)") }
        if note != nil && (this != nil || views) { throw ValidationError("--note sets `this` to the note itself; leave out --this and --views") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        if let note { return try runNote(note, session: session, context: context) }
        guard let file else { return .success }
        guard let record = try session.store.resolveBase(file) else {
            throw CLIError.baseNotFound(argument: file, suggestions: try session.store.baseSuggestions(for: file))
        }
        let program = try session.store.baseProgram(atPath: record.path)
        let thisPath = try this.map { try session.note($0).path } ?? record.path
        if views {
            let counts = try session.store.baseViewCounts(program, thisPath: thisPath)
            if global.json {
                printJSON(counts.map { ViewCount(name: $0.name, type: $0.type, total: $0.total) }, vault: session.vaultPath, context: context)
            } else {
                var table = TextTable(headers: ["view", "layout", "rows"])
                for count in counts { table.add(count.name, count.type, String(count.total)) }
                context.print(table.render())
            }
            return .success
        }
        let result = try session.store.runBase(program, viewNamed: view, thisPath: thisPath)
        print(result, session: session, context: context)
        return .success
    }

    // MARK: Bases in a note

    private func runNote(_ argument: String, session: VaultSession, context: CommandContext) throws -> ExitStatus {
        let origin = try session.note(argument)
        let text = try readText(origin.path, session: session)
        var outcomes: [NoteBase] = []
        for block in DataviewBlock.find(in: text, language: "base") {
            let outcome = Result { () throws -> BaseResult in
                let program = try BaseProgram.load(text: block.query, path: origin.path, lineOffset: block.openingLine)
                return try session.store.runBase(program, viewNamed: nil, thisPath: origin.path)
            }
            outcomes.append(NoteBase(line: block.openingLine, source: "base block", result: outcome))
        }
        for embed in try session.store.outgoingLinks(of: origin.id) where embed.kind == "embed" {
            if embed.target == nil, embed.linkPath.lowercased().hasSuffix(".base") {
                let missing = BaseError(
                    .notFound, "the embedded base `\(embed.linkPath)` does not exist", path: origin.path, line: embed.line, column: embed.column,
                    fix: "create it, or correct the embed's name")
                outcomes.append(NoteBase(line: embed.line, source: embed.linkPath, result: .failure(missing)))
                continue
            }
            guard let target = embed.target, target.lowercased().hasSuffix(".base") else { continue }
            let outcome = Result { () throws -> BaseResult in
                let program = try session.store.baseProgram(atPath: target)
                let viewName = embed.subpath.flatMap { $0.isEmpty ? nil : $0 }
                return try session.store.runBase(program, viewNamed: viewName, thisPath: origin.path)
            }
            outcomes.append(NoteBase(line: embed.line, source: target + (embed.subpath.map { "#" + $0 } ?? ""), result: outcome))
        }
        outcomes.sort { $0.line < $1.line }
        if global.json {
            printJSON(NotePayload(note: origin.path, bases: outcomes.map(NotePayload.Entry.init)), vault: session.vaultPath, context: context)
        } else {
            if outcomes.isEmpty { context.print("\(origin.path) has no base blocks or embedded bases") }
            for (index, outcome) in outcomes.enumerated() {
                if index > 0 { context.print("") }
                context.print("# \(outcome.source), line \(outcome.line) of \(origin.path)")
                switch outcome.result {
                case .success(let result): print(result, session: session, context: context, wrapped: false)
                case .failure(let error as BaseError): context.print("error: " + error.diagnostic)
                case .failure(let error): context.print("error: \(error)")
                }
            }
        }
        return outcomes.contains { if case .failure = $0.result { true } else { false } } ? .problemsFound : .success
    }

    // MARK: Helpers

    private func readText(_ path: String, session: VaultSession) throws -> String {
        guard case .success(let bytes) = FileReader.read(DiskPath(session.vaultPath + "/" + path), maxBytes: 16 << 20) else {
            throw CLIError.invalidArgument("cannot read \(path): check that it exists and is readable, then run `rhizome index`")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private func print(_ result: BaseResult, session: VaultSession, context: CommandContext, wrapped: Bool = true) {
        if global.json && wrapped {
            printJSON(BaseJSONPayload(result), vault: session.vaultPath, context: context)
        } else if csv {
            context.print(BaseOutput.csv(result))
        } else if markdown {
            context.print(BaseOutput.markdown(result))
        } else {
            context.print(BaseOutput.text(result))
        }
    }

    private struct ViewCount: Encodable {
        var name: String
        var type: String
        var total: Int
    }

    private struct NoteBase {
        var line: Int
        var source: String
        var result: Result<BaseResult, any Error>
    }

    private struct NotePayload: Encodable {
        struct Entry: Encodable {
            struct Failure: Encodable {
                var code: String
                var message: String
            }
            var line: Int
            var source: String
            var result: BaseJSONPayload?
            var error: Failure?

            init(_ outcome: NoteBase) {
                line = outcome.line
                source = outcome.source
                switch outcome.result {
                case .success(let result): self.result = BaseJSONPayload(result)
                case .failure(let error as BaseError): self.error = Failure(code: error.code, message: error.diagnostic)
                case .failure(let error): self.error = Failure(code: "base-failed", message: "\(error)")
                }
            }
        }
        var note: String
        var bases: [Entry]
    }
}

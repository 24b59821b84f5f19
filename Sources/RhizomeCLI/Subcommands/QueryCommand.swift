import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome query 'DQL'`: Dataview queries over the index, without Obsidian; `--note NOTE` runs the
/// ```` ```dataview ```` blocks of a note, and `--render OUT` writes a copy of it with the results inlined.
struct QueryCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run a Dataview query (LIST, TABLE, TASK) over the index, or the dataview blocks of a note.",
        discussion: """
            Examples:
              rhizome query 'TABLE status, due FROM #project WHERE status != "done" SORT due LIMIT 20'
              rhizome query 'LIST FROM "Meetings" WHERE file.day >= date(today) - dur(7 days)'
              rhizome query 'TABLE length(rows) AS notes GROUP BY type'
              rhizome query --note "Home" --render /tmp/Home-rendered.md
            See docs/DATAVIEW.md for the supported language.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, csv, markdown }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The query (DQL). Optional with --note: then the note's dataview blocks run.")
    var query: String?

    @Flag(name: .long, help: "Print CSV (links as vault paths, dates as ISO 8601).")
    var csv = false

    @Flag(name: .long, help: "Print a markdown table or list to paste into a note.")
    var markdown = false

    @Flag(name: .long, help: "Also print the plan: what ran in SQL, what was evaluated in Swift.")
    var explain = false

    @Option(name: .long, help: "Run in this note: `this` is the note, [[]] links resolve from it; without a query, run its dataview blocks.")
    var note: String?

    @Option(name: .long, help: "With --note: write a copy of the note with each block's results below it to this new file (never over the note).")
    var render: String?

    func validate() throws {
        if csv && markdown { throw ValidationError("choose one of --csv and --markdown") }
        if query == nil && note == nil { throw ValidationError("give a query, or --note NOTE to run the note's dataview blocks") }
        if render != nil && note == nil { throw ValidationError("--render needs --note NOTE (the note to copy)") }
        if render != nil && query != nil { throw ValidationError("--render runs the note's own blocks; leave out the query") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let origin = try note.map { try session.note($0) }
        if let query {
            let result = try run(query, in: session, origin: origin?.path)
            print(result, context: context, vault: session.vaultPath)
            return .success
        }
        guard let origin else { return .success }
        let notePath = session.vaultPath + "/" + origin.path
        guard case .success(let bytes) = FileReader.read(DiskPath(notePath), maxBytes: 16 << 20) else {
            throw CLIError.invalidArgument("cannot read \(origin.path) to find its dataview blocks")
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let blocks = DataviewBlock.find(in: text)
        var outcomes: [(block: DataviewBlock, result: Result<DataviewResult, DataviewError>)] = []
        for block in blocks {
            do {
                outcomes.append((block, .success(try run(block.query, in: session, origin: origin.path))))
            } catch let error as DataviewError {
                outcomes.append((block, .failure(error)))
            }
        }
        if let render {
            let destination = try renderCopy(text, outcomes: outcomes, to: render, original: notePath, context: context)
            if !global.json { context.print("wrote \(destination) (\(blocks.count) dataview block\(blocks.count == 1 ? "" : "s") rendered)") }
        }
        if global.json {
            printJSON(BlocksPayload(note: origin.path, blocks: outcomes.map { outcome in
                switch outcome.result {
                case .success(let result):
                    return .init(line: outcome.block.openingLine, query: outcome.block.query, result: DataviewJSONPayload(result, explain: explain), error: nil)
                case .failure(let error):
                    return .init(line: outcome.block.openingLine, query: outcome.block.query, result: nil, error: .init(code: error.code, message: error.diagnostic))
                }
            }, rendered: render), vault: session.vaultPath, context: context)
        } else if render == nil {
            if blocks.isEmpty { context.print("\(origin.path) has no dataview blocks") }
            for (index, outcome) in outcomes.enumerated() {
                if index > 0 { context.print("") }
                context.print("# block \(index + 1), line \(outcome.block.openingLine) of \(origin.path)")
                switch outcome.result {
                case .success(let result): print(result, context: context, vault: session.vaultPath)
                case .failure(let error): context.print("error: " + error.diagnostic)
                }
            }
        }
        return outcomes.contains { if case .failure = $0.result { true } else { false } } ? .problemsFound : .success
    }

    // MARK: Helpers

    private func run(_ text: String, in session: VaultSession, origin: String?) throws -> DataviewResult {
        let parsed = try DataviewParser.parse(text)
        return try session.store.runDataview(parsed, origin: origin)
    }

    private func print(_ result: DataviewResult, context: CommandContext, vault: String) {
        if global.json {
            printJSON(DataviewJSONPayload(result, explain: explain), vault: vault, context: context)
            return
        }
        if explain { context.print(DataviewOutput.explanation(result) + "\n") }
        if csv {
            context.print(String(DataviewOutput.csv(result).dropLast()))  // "\r\n" is one Character
        } else if markdown {
            context.print(DataviewOutput.markdown(result))
        } else {
            context.print(DataviewOutput.text(result))
        }
    }

    /// Writes the note with each block's results after its closing fence, to a new file.
    private func renderCopy(
        _ text: String, outcomes: [(block: DataviewBlock, result: Result<DataviewResult, DataviewError>)], to path: String,
        original: String, context: CommandContext
    ) throws -> String {
        let destination = path.hasPrefix("/") ? path : context.currentDirectory + "/" + path
        let resolvedDestination = URL(fileURLWithPath: destination).resolvingSymlinksInPath().path
        let resolvedOriginal = URL(fileURLWithPath: original).resolvingSymlinksInPath().path
        if resolvedDestination == resolvedOriginal {
            throw CLIError.invalidArgument("--render would overwrite the note itself (\(path)); give another path")
        }
        // The copy keeps the note's line endings.
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        var lines = DataviewBlock.lines(of: text).map(String.init)
        for outcome in outcomes.reversed() {
            let rendered: String
            switch outcome.result {
            case .success(let result): rendered = DataviewOutput.markdown(result)
            case .failure(let error):
                rendered = "> [!error] Dataview query failed\n" + error.diagnostic.split(separator: "\n").map { "> " + $0 }.joined(separator: "\n")
            }
            lines.insert(contentsOf: [""] + DataviewBlock.lines(of: rendered).map(String.init) + [""],
                         at: min(outcome.block.closingLine, lines.count))
        }
        let result = Result { () throws(FileWriteError) in
            try AtomicFileWriter.create(destination, bytes: Array(lines.joined(separator: newline).utf8))
        }
        if case .failure(.alreadyExists) = result {
            throw CLIError.invalidArgument("\(path) already exists; Rhizome never overwrites a file it did not create. Remove it or give another path")
        }
        try result.get()
        return path
    }

    struct BlocksPayload: Encodable {
        struct Block: Encodable {
            struct Failure: Encodable {
                var code: String
                var message: String
            }
            var line: Int
            var query: String
            var result: DataviewJSONPayload?
            var error: Failure?
        }
        var note: String
        var blocks: [Block]
        var rendered: String?
    }
}

import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome open NOTE [--line N] [--app | --print-uri]`: from an answer to the note, in `$VISUAL`/`$EDITOR`
/// (at line N), in Obsidian, or as the `obsidian://` URI for scripts.
struct OpenCommand: RhizomeSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a note in your editor ($VISUAL or $EDITOR), or in Obsidian with --app.",
        discussion: """
            The editor gets `+N FILE` with --line N (vi, vim, nvim, nano, emacs, micro, helix and code with -g \
            understand it). --app opens the obsidian://open URI with `open` (macOS) or `xdg-open` (Linux); \
            --print-uri prints it instead.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The note: Note, Folder/Note, Note.md, a pasted [[link]] or an obsidian:// URI.", completion: NoteCompletion.kind)
    var note: String

    @Option(help: "Open at this line (editor only).")
    var line: Int?

    @Flag(help: "Open the note in Obsidian.")
    var app = false

    @Flag(name: .customLong("print-uri"), help: "Print the obsidian:// URI of the note and exit.")
    var printURI = false

    func validate() throws {
        if let line, line < 1 { throw ValidationError("--line must be 1 or more") }
        if app && printURI { throw ValidationError("--app and --print-uri are alternatives; give one") }
    }

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        let record = try session.note(note)
        let uri = Self.obsidianURI(vaultPath: session.vaultPath, notePath: record.path)
        if printURI {
            if global.json {
                printJSON(["path": record.path, "uri": uri], vault: session.vaultPath, context: context)
            } else {
                context.print(uri)
            }
            return .success
        }
        if app {
            #if os(macOS)
            let opener = "open"
            #else
            let opener = "xdg-open"
            #endif
            return try run(command: "\(opener) \"$@\"", arguments: [uri], what: opener, context: context)
        }
        guard let editor = ["VISUAL", "EDITOR"].lazy.compactMap({ context.environment[$0] }).first(where: { !$0.isEmpty }) else {
            throw CLIError.invalidArgument("no editor to open \(record.path) with: set $EDITOR (e.g. `export EDITOR=vim`), or open it in Obsidian with --app")
        }
        let file = session.vaultPath + "/" + record.path
        return try run(command: "\(editor) \"$@\"", arguments: (line.map { ["+\($0)"] } ?? []) + [file], what: "the editor `\(editor)`", context: context)
    }

    /// `obsidian://open?vault=NAME&file=PATH`: the vault by its folder name, the note by its path without `.md`.
    static func obsidianURI(vaultPath: String, notePath: String) -> String {
        var file = notePath
        if file.lowercased().hasSuffix(".md") { file.removeLast(3) }
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+?#/")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        return "obsidian://open?vault=\(encode(String(VaultPath.fileName(of: vaultPath))))&file=\(encode(file))"
    }

    /// Runs `command` through `/bin/sh` (so that `$EDITOR` may carry its own arguments, as git allows),
    /// attached to this terminal, and waits for it.
    private func run(command: String, arguments: [String], what: String, context: CommandContext) throws -> ExitStatus {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command, "rhizome-open"] + arguments
        process.environment = context.environment
        do {
            try process.run()
        } catch {
            throw CLIError.invalidArgument("could not start \(what): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            context.printError("error: \(what) exited with status \(process.terminationStatus)")
            return .problemsFound
        }
        return .success
    }
}

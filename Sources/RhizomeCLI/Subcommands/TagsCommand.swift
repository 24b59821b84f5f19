import ArgumentParser
import Foundation
import RhizomeCore
import RhizomeStore

/// `rhizome tags [TAG]`: tag counts (nested tags roll up), or the notes carrying one tag.
struct TagsCommand: RhizomeSubcommand {
    static let pagesOutput = true  // a list a terminal may page

    static let configuration = CommandConfiguration(
        commandName: "tags",
        abstract: "List tags with counts (nested tags roll up into their parents), or the notes with TAG.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A tag (with or without #); matches nested tags too: #project matches #project/rhizome.")
    var tag: String?

    /// The list options: with TAG they narrow and page its notes (sorted by path, name, modified or size);
    /// without, `--folder`, `--tag` and `--type` narrow the notes whose tags are counted, and the tags sort
    /// by name (nested under their parents), count or notes.
    @OptionGroup var shaping: ListShaping

    func execute(in context: CommandContext) throws -> ExitStatus {
        let session = try VaultSession.open(global, context: context)
        if let tag {
            let tagged = try session.store.files(withTag: tag)
            let (files, total) = try shaping.shape(tagged, path: \.path, store: session.store, sortBy: SortField.fileFields)
            let name = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
            shaping.print(files.map(\.path), total: total, title: "files tagged #\(name)", singular: "file tagged #\(name)", command: self, session: session, context: context)
            if tagged.isEmpty, !global.json, shaping.format == nil, let near = NearestName.nearest(name, among: try session.store.tagCounts().map(\.tag)) {
                context.printError("Did you mean #\(near)?")
            }
            return .success
        }
        var notes: Set<String>? = nil
        if shaping.narrows { notes = Set(try shaping.narrow(try session.store.notePaths(), path: { $0 }, store: session.store)) }
        let fields: [SortField<TagCount>] = [.text("name", \.tag), .number("count") { Double($0.count) }, .number("notes") { Double($0.notes) }]
        let counts = try shaping.sorted(try session.store.tagCounts(inNotes: notes), by: fields)
        let shown = shaping.page(counts)
        let nested = shaping.sort.flatMap(SortRequest.init).map { $0.field == "name" && $0.descending != true } ?? true
        let columns: [(name: String, value: (TagCount) -> String)] = [("tag", \.tag), ("count", { String($0.count) }), ("notes", { String($0.notes) })]
        shaping.print(shown, total: counts.count, columns: columns, path: \.tag, command: self, session: session, context: context) {
            var table = TextTable("TAG", "COUNT", "NOTES")
            for count in shown {
                let depth = count.tag.filter { $0 == "/" }.count
                table.add(String(repeating: "  ", count: nested ? depth : 0) + "#" + count.tag, count.count.grouped, count.notes.grouped)
            }
            context.print(table.render())
        }
        return .success
    }
}

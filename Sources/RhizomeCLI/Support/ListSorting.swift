import RhizomeCore
import RhizomeStore

/// `--sort FIELD[:asc|:desc]` of the list commands: the fields a command sorts its rows by, and the sort
/// itself (stable: rows equal on the field keep the command's own order).
struct SortField<Row> {
    /// The name given to `--sort`.
    var name: String
    /// Counts, sizes and dates sort largest or newest first unless `:asc` is given.
    var descendingByDefault: Bool
    /// Whether `a` comes before `b` in ascending order.
    var ascending: (Row, Row) -> Bool
    /// Rows without a value (a task with no due date): last, whichever the direction.
    var isEmpty: (Row) -> Bool = { _ in false }

    /// Text compared ignoring case first (`apple` before `Banana`), then byte for byte.
    static func text(_ name: String, _ key: @escaping (Row) -> String) -> SortField {
        SortField(name: name, descendingByDefault: false) { a, b in
            let (left, right) = (key(a), key(b))
            let (foldedLeft, foldedRight) = (left.lowercased(), right.lowercased())
            return foldedLeft != foldedRight ? foldedLeft < foldedRight : left < right
        }
    }

    /// A number; rows without one come last in either direction.
    static func number(_ name: String, descendingByDefault: Bool = true, _ key: @escaping (Row) -> Double?) -> SortField {
        SortField(name: name, descendingByDefault: descendingByDefault, ascending: { a, b in
            guard let left = key(a), let right = key(b) else { return false }
            return left < right
        }, isEmpty: { key($0) == nil })
    }

    /// Text that may be missing (a due date); rows without it come last.
    static func optionalText(_ name: String, descendingByDefault: Bool = false, _ key: @escaping (Row) -> String?) -> SortField {
        SortField(name: name, descendingByDefault: descendingByDefault, ascending: { a, b in
            guard let left = key(a), let right = key(b) else { return false }
            return left < right
        }, isEmpty: { key($0) == nil })
    }
}

/// What `--sort` asked for.
struct SortRequest: Equatable {
    /// The usage error for a field the list does not sort by, naming those it does.
    func unknownField(among known: [String]) -> CLIError {
        guard !known.isEmpty else { return .invalidArgument("this command's list has one order; --sort does not apply") }
        return .invalidArgument("--sort: this list sorts by \(known.joined(separator: ", ")), not `\(field)`"
            + (NearestName.nearest(field, among: known).map { " (did you mean `\($0)`?)" } ?? ""))
    }

    var field: String
    /// nil: the field's own default direction.
    var descending: Bool?

    /// Parses `FIELD`, `FIELD:asc` or `FIELD:desc`; nil when it is none of those.
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else { return nil }
        field = parts[0].lowercased()
        if parts.count == 2 {
            switch parts[1].lowercased() {
            case "asc": descending = false
            case "desc": descending = true
            default: return nil
            }
        }
    }
}

extension ListShaping {
    /// `rows` in the order `--sort` asks for (unchanged without it). Throws a usage error naming the
    /// fields this command sorts by when the field is not one of them.
    func sorted<Row>(_ rows: [Row], by fields: [SortField<Row>]) throws -> [Row] {
        guard let sort, let request = SortRequest(sort) else { return rows }
        guard let field = fields.first(where: { $0.name == request.field }) else {
            throw request.unknownField(among: fields.map(\.name))
        }
        let descending = request.descending ?? field.descendingByDefault
        return rows.enumerated().sorted { a, b in
            // Rows without a value (a note with no date, say) go last whichever the direction.
            let (emptyA, emptyB) = (field.isEmpty(a.element), field.isEmpty(b.element))
            if emptyA != emptyB { return emptyB }
            if field.ascending(a.element, b.element) { return !descending }
            if field.ascending(b.element, a.element) { return descending }
            return a.offset < b.offset
        }.map(\.element)
    }
}

// The fields of the rows several commands list.

extension SortField where Row == FileRecord {
    /// Notes listed by `orphans` and `deadends`.
    static var fileFields: [SortField] {
        let path = SortField.text("path") { $0.path }, name = SortField.text("name") { $0.name }
        let modified = SortField.number("modified") { $0.modified.map(Double.init) }
        let size = SortField.number("size") { $0.size.map(Double.init) }
        return [path, name, modified, size]
    }
}

extension SortField where Row == LinkRecord {
    /// Link occurrences (`links`, `backlinks`, `unresolved`): `count` is how often the same link text occurs
    /// in the list (most first), which puts the most wanted missing notes of `unresolved` on top.
    static func linkFields(_ links: [LinkRecord]) -> [SortField] {
        var counts: [String: Int] = [:]
        for link in links { counts[link.linkPath.lowercased(), default: 0] += 1 }
        let source = SortField.text("source") { $0.source }, target = SortField.text("target") { $0.target ?? $0.linkPath }
        let kind = SortField.text("kind") { $0.kind }
        let line = SortField.number("line", descendingByDefault: false) { Double($0.line) }
        let count = SortField.number("count") { Double(counts[$0.linkPath.lowercased()] ?? 0) }
        return [source, target, kind, line, count]
    }
}

extension SortField where Row == Finding {
    /// Findings (`findings`, `validate`): `severity` puts errors first.
    static var findingFields: [SortField] {
        let path = SortField.text("path") { $0.path ?? "" }, code = SortField.text("code") { $0.code.rawValue }
        let severity = SortField(name: "severity", descendingByDefault: true, ascending: { $0.severity < $1.severity })
        let line = SortField.number("line", descendingByDefault: false) { $0.line.map(Double.init) }
        return [path, code, severity, line]
    }
}

import RhizomeCore

/// What a query reads of each page, so that pages are built with only that: the fields it can name and
/// the `file.*` members it uses.
struct DataviewNeeds: Sendable {
    /// Whether pages need their fields (frontmatter and inline fields) at all.
    var fields: Bool
    /// The names under which the query can read fields (as written and lowercased); nil means it can
    /// read any field (it uses a row or `rows` whole, or indexes one with a computed key).
    var fieldNames: Set<String>?
    /// `file.*` members needed; nil means all of them.
    var fileMembers: Set<String>?

    static let everything = DataviewNeeds(fields: true, fieldNames: nil, fileMembers: nil)

    init(fields: Bool, fieldNames: Set<String>?, fileMembers: Set<String>?) {
        self.fields = fields
        self.fieldNames = fieldNames
        self.fileMembers = fileMembers
    }

    /// What `query` needs: fields when it names any variable besides `file` and `this`, and of `file.*`
    /// the members it names (all of them when it uses `file` whole, or indexes it with a computed key).
    init(query: DataviewQuery) {
        var analysis = Analysis()
        for expression in query.expressions { analysis.visit(expression, .value) }
        if analysis.members.contains("day") { analysis.needsFields = true }
        // Fields are looked up as written, then lowercased.
        let names = analysis.fieldNames.union(analysis.fieldNames.map { $0.lowercased() })
        self.init(
            fields: analysis.needsFields, fieldNames: analysis.wholeRow ? nil : names,
            fileMembers: analysis.wholeFile || analysis.wholeRow ? nil : analysis.members)  // a whole page has a whole `file`
    }

    func wants(_ member: String) -> Bool { fileMembers?.contains(member) ?? true }

    /// Whether the query can read the field a frontmatter or inline key `key` (canonical form
    /// `canonical`) gives a page: under the key itself, its canonical form, or as `file.day`.
    func wantsField(_ key: String, canonical: String) -> Bool {
        guard let fieldNames else { return true }
        if fieldNames.contains(key) || fieldNames.contains(canonical) { return true }
        return wants("day") && (canonical == "date" || canonical == "day")
    }

    /// How an expression's value is used: as the base of `.name` or `[key]`, only counted
    /// (`length(x)`), or as a value that may be shown or compared whole.
    private enum Use { case memberBase, counted, value }

    private struct Analysis {
        var needsFields = false
        var members: Set<String> = ["link"]
        var fieldNames: Set<String> = []
        var wholeFile = false
        var wholeRow = false

        mutating func visit(_ expression: DataviewExpression, _ use: Use) {
            switch expression {
            case .variable(let name):
                if name == "file" {
                    if use != .memberBase { wholeFile = true }
                } else if name != "this" {
                    needsFields = true
                    fieldNames.insert(name)
                    // `row` is the page itself and, after GROUP BY, `rows` holds whole pages.
                    if (name == "row" || name == "rows") && use == .value { wholeRow = true }
                }
            case .member(let base, let name):
                members.insert(name)
                fieldNames.insert(name)
                if name == "file" && use != .memberBase { wholeFile = true }  // `rows.file`
                visit(base, .memberBase)
            case .index(let base, let index):
                if case .literal(.string(let key)) = index {
                    members.insert(key)
                    fieldNames.insert(key)
                    if key == "file" && use != .memberBase { wholeFile = true }  // `row["file"]`
                } else {
                    wholeFile = true
                    wholeRow = true
                }
                visit(base, .memberBase)
                visit(index, .value)
            case .call(let name, let arguments, _, _):
                let counts = name == "length" && arguments.count == 1
                for argument in arguments { visit(argument, counts ? .counted : .value) }
            case .binary(_, let left, let right):
                visit(left, .value)
                visit(right, .value)
            case .not(let inner), .negate(let inner):
                visit(inner, .value)
            case .list(let items):
                for item in items { visit(item, .value) }
            case .object(let pairs):
                for pair in pairs { visit(pair.value, .value) }
            case .lambda(_, let body):
                visit(body, .value)
            case .apply(let function, let arguments):
                visit(function, .value)
                for argument in arguments { visit(argument, .value) }
            case .literal, .link:
                break
            }
        }
    }
}

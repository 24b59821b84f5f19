/// `KEY=VALUE` as people write it on a command line, typed as Obsidian's property types read YAML: text,
/// number, checkbox (`true`/`false`), date, list (`[a, b]`), and links (`[[Note]]`, which are quoted so they
/// stay links rather than becoming YAML's nested lists).
public enum PropertyAssignment {
    /// Splits and types `KEY=VALUE`; nil when there is no `=` or no key.
    public static func parse(_ assignment: String) -> (key: String, value: FrontmatterValue)? {
        guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else { return nil }
        let key = String(assignment[..<equals]).trimmingSpaces
        guard !key.isEmpty else { return nil }
        return (key, value(String(assignment[assignment.index(after: equals)...])))
    }

    /// A value's text typed as YAML would type it, with the exceptions a command line needs.
    public static func value(_ text: String) -> FrontmatterValue {
        guard case .success(let node?) = YAMLParser.parse("value: " + text), case .map(let entries) = node.value,
              let value = entries.first?.value.value else {
            return .string(text)
        }
        // `related=[[Home]]`: unquoted, YAML reads a list in a list; on a command line it means the link.
        if !NoteChecker.unquotedLinks(in: entries[0].value).isEmpty {
            return FixPlanner.quotingLinks(entries[0].value).value
        }
        // `aliases=#1 priority` is YAML for an empty value and a comment; the user meant the text.
        if value == .null, !["", "~", "null", "Null", "NULL"].contains(text.trimmingSpaces) {
            return .string(text)
        }
        return value
    }
}

/// The name of a property as a `.base` file writes it in a view's `order`, `sort`, `groupBy`, `summaries`,
/// `image` or map settings, and as the keys of `properties`: `year` and `note.year` are the same note
/// property, `file.name` a file property, `formula.price` a formula of the base.
///
/// Only the first dot can separate a namespace: after `note.`, `file.` or `formula.` the rest is the name,
/// dots and spaces included (`formula.Type icon`, `note.my.key` → note property `my.key`). A name with no
/// recognized prefix is a note property, whole (`my.key` → note property `my.key`), as Obsidian's help
/// says: "If no prefix is specified, the property is assumed to be a `note` property".
public struct BasePropertyName: Sendable, Hashable, CustomStringConvertible {
    public enum Namespace: String, Sendable, Hashable {
        case note, file, formula
    }

    public var namespace: Namespace
    /// The name inside the namespace: `year` for `note.year`, `name` for `file.name`.
    public var name: String

    public init(namespace: Namespace, name: String) {
        self.namespace = namespace
        self.name = name
    }

    /// Reads a name as written. A prefix alone (`file.`) or a bare `file` names a note property of that text.
    public init(_ written: String) {
        for namespace in [Namespace.note, .file, .formula] {
            let prefix = namespace.rawValue + "."
            if written.hasPrefix(prefix), written.count > prefix.count {
                self.init(namespace: namespace, name: String(written.dropFirst(prefix.count)))
                return
            }
        }
        self.init(namespace: .note, name: written)
    }

    /// The fully qualified form: `note.year`, `file.name`, `formula.price`.
    public var canonical: String { "\(namespace.rawValue).\(name)" }

    public var description: String { canonical }
}

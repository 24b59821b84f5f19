import Foundation

/// Applies the safe fixes for one note to a `FrontmatterEditor` (which rewrites only the frontmatter
/// and keeps untouched keys' text): legacy key renames, scalars where a list belongs, date
/// normalisation, quoting `[[links]]`, with `populate` missing fields that have defaults and inferable
/// ids, with `unsafe` removal of unknown keys in strict schemas, and the schema's key order.
/// Applying the fixes to their own output changes nothing.
public enum FixPlanner {
    public struct Options: Sendable {
        /// Add missing fields that have a default, and missing ids the schema can infer.
        public var populate = false
        /// Also remove keys a strict schema does not know.
        public var unsafe = false
        /// Ids other notes already have: an inferred id that is among them is not written.
        public var takenIDs: Set<String> = []
        /// Put keys in the schema's order in every note. Without it, only notes rewritten for another fix
        /// are reordered, so that a first `fix` does not rewrite a whole vault for order alone.
        public var reorder = false

        public init(populate: Bool = false, unsafe: Bool = false, takenIDs: Set<String> = [], reorder: Bool = false) {
            self.populate = populate
            self.unsafe = unsafe
            self.takenIDs = takenIDs
            self.reorder = reorder
        }
    }

    /// One change made to a note.
    public struct AppliedFix: Sendable, Hashable, Codable {
        /// The finding code the fix answers (`key-order` for reordering).
        public var code: String
        public var key: String
        public var description: String

        public init(code: String, key: String, description: String) {
            self.code = code
            self.key = key
            self.description = description
        }
    }

    /// Applies every applicable fix to `editor`; returns what was changed (empty when nothing was).
    public static func apply(
        to editor: inout FrontmatterEditor, frontmatter: Frontmatter?, typing: NoteTyping, path: String, options: Options
    ) -> [AppliedFix] {
        var fixes: [AppliedFix] = []
        func record(_ code: FindingCode, _ key: String, _ description: String) {
            fixes.append(AppliedFix(code: code.rawValue, key: key, description: description))
        }

        // Every note: legacy keys and unquoted links.
        for (legacy, plural) in NoteChecker.legacyKeys.sorted(by: { $0.key < $1.key }) {
            // Written twice, the two values would need merging by hand: left alone (a duplicate-key finding says so).
            guard let node = editor.value(forKey: legacy), editor.value(forKey: plural) == nil,
                  editor.keys.count(where: { $0 == legacy }) == 1 else { continue }
            guard editor.renameKey(legacy, to: plural) else { continue }
            record(.legacyKey, legacy, "renamed `\(legacy)` to `\(plural)`")
            if let text = node.value.scalarText, node.value != .null {
                let items = splitLegacy(text, key: plural)
                editor.setValue(.list(items.map { FrontmatterNode(value: .string($0), line: 0, column: 0) }), forKey: plural)
                record(.wrongType, plural, "made `\(plural)` a list: [\(items.joined(separator: ", "))]")
            }
        }
        for key in editor.keys {
            guard let node = editor.value(forKey: key), !NoteChecker.unquotedLinks(in: node).isEmpty else { continue }
            editor.setValue(quotingLinks(node).value, forKey: key)
            record(.unquotedLink, key, "quoted the [[links]] in `\(key)`")
        }

        guard let schema = typing.schema else { return fixes }
        let root = schema.frontmatter.resolved

        // Shapes and formats of the properties the schema describes.
        for (key, property) in root.properties {
            guard let node = editor.value(forKey: key) else { continue }
            let property = property.resolved
            if let types = property.types, types.contains(.array), !types.contains(.string), node.value != .null,
               let text = node.value.scalarText {
                let splits = ["tags", "aliases", "cssclasses"].contains(key)
                let items = splits ? splitLegacy(text, key: key) : [text]
                var list = FrontmatterNode(
                    value: .list(items.map { FrontmatterNode(value: splits ? .string($0) : node.value, line: 0, column: 0) }), line: 0, column: 0)
                if let normalised = normalisingDates(list, schema: property) { list.value = normalised }
                editor.setValue(list.value, forKey: key)
                record(.wrongType, key, "made `\(key)` a list")
                continue
            }
            if let normalised = normalisingDates(node, schema: property), normalised != node.value {
                editor.setValue(normalised, forKey: key)
                record(.invalidFormat, key, "wrote the date in `\(key)` as YYYY-MM-DD")
            }
        }

        // Missing fields (only when asked: adding values is a choice the user makes).
        if options.populate {
            if let rule = schema.id, editor.value(forKey: rule.field).flatMap({ NoteChecker.idText($0.value) }) == nil,
               let inferred = schema.inferredID(path: path, frontmatter: frontmatter), !inferred.isEmpty, !options.takenIDs.contains(inferred),
               root.property(rule.field)?.resolved.pattern?.matches(inferred) ?? true {
                editor.setValue(.string(inferred), forKey: rule.field, insertAfter: insertionAnchor(for: rule.field, schema: schema, editor: editor))
                record(.missingRequired, rule.field, "set `\(rule.field): \(inferred)` (from the \(rule.inferredFrom?.rawValue ?? "name"))")
            }
            // Missing, or present with nothing after the colon (`status:`), which templates leave behind.
            for (key, property) in root.properties where editor.value(forKey: key).map({ $0.value == .null }) ?? true {
                guard let value = property.effectiveDefault, !(value.scalarText.map(NoteIdentifier.containsPlaceholder) ?? false) else { continue }
                if case .list(let items) = value, items.contains(where: { $0.value.scalarText.map(NoteIdentifier.containsPlaceholder) ?? false }) { continue }
                editor.setValue(value, forKey: key, insertAfter: insertionAnchor(for: key, schema: schema, editor: editor))
                record(.missingRequired, key, "added `\(key)` with its default")
            }
        }

        if options.unsafe, case .forbidden = root.additionalProperties {
            for key in editor.keys where root.property(key) == nil {
                editor.removeKey(key)
                record(.unknownKey, key, "removed the unknown key `\(key)`")
            }
        }

        if !schema.keyOrder.isEmpty, options.reorder || !fixes.isEmpty {
            let before = editor.keys
            editor.reorder(schema.keyOrder)
            if editor.keys != before {
                fixes.append(AppliedFix(code: "key-order", key: "", description: "put the keys in the schema's order (" + schema.keyOrder.joined(separator: ", ") + ")"))
            }
        }
        return fixes
    }

    // MARK: Helpers

    /// A legacy or scalar `tags`/`cssclasses` value splits on commas and spaces (neither can hold them);
    /// `aliases` splits on commas only. A leading `#` is dropped from tags.
    static func splitLegacy(_ text: String, key: String) -> [String] {
        let separators: Set<Character> = key == "aliases" ? [","] : [",", " ", "\t"]
        var items = text.split(whereSeparator: { separators.contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if key == "tags" { items = items.map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 } }
        var seen = Set<String>()
        return items.filter { seen.insert($0).inserted }
    }

    /// `node` with every unquoted `[[link]]` (a list in a list) turned into the quoted string `"[[link]]"`.
    public static func quotingLinks(_ node: FrontmatterNode) -> FrontmatterNode {
        if let text = NoteChecker.unquotedLinkText(node) {
            return FrontmatterNode(value: .string("[[\(text)]]"), line: node.line, column: node.column, isQuoted: true)
        }
        guard case .list(let items) = node.value else { return node }
        var copy = node
        copy.value = .list(items.map(quotingLinks))
        return copy
    }

    /// The value with dates in `format: date`/`date-time` fields (and list items) in canonical form.
    static func normalisingDates(_ node: FrontmatterNode, schema: JSONSchema) -> FrontmatterValue? {
        switch node.value {
        case .string(let text), .date(let text):
            guard let format = schema.format, format == .date || format == .dateTime,
                  !DateText.matches(text, format: format), let fixed = DateText.normalise(text, format: format) else { return nil }
            return .date(fixed)
        case .number(_, let text):
            // `started: 20240105` unquoted is a number to YAML.
            guard schema.format == .date, text.count == 8, let fixed = DateText.normalise(text, format: .date) else { return nil }
            return .date(fixed)
        case .list(let items):
            guard let itemSchema = schema.items?.resolved else { return nil }
            var changed = false
            let fixedItems = items.map { item -> FrontmatterNode in
                guard let fixed = normalisingDates(item, schema: itemSchema) else { return item }
                changed = true
                return FrontmatterNode(value: fixed, line: item.line, column: item.column)
            }
            return changed ? .list(fixedItems) : nil
        default:
            return nil
        }
    }

    /// The key a new `key` goes after: the closest key before it in the schema's key order that the note has.
    static func insertionAnchor(for key: String, schema: NoteSchema, editor: FrontmatterEditor) -> String? {
        guard let position = schema.keyOrder.firstIndex(of: key) else { return editor.keys.last }
        return schema.keyOrder[..<position].reversed().first { editor.value(forKey: $0) != nil } ?? editor.keys.last
    }
}

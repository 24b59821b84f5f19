import Foundation

/// Checks frontmatter values against a `JSONSchema`, collecting every violation as a `Finding` located
/// at the offending key (or list item) with what was expected and what was found.
struct SchemaValidator {
    let path: String
    private(set) var findings: [Finding] = []

    init(path: String) { self.path = path }

    /// A position in the note: the key's for properties, the item's for list items.
    struct Location {
        var line: Int
        var column: Int
    }

    /// Checks a mapping's entries (the frontmatter, or a nested map) against an object schema.
    mutating func checkMapping(
        _ entries: [FrontmatterEntry], against schema: JSONSchema, keyPath: String, at location: Location, exempt: Set<String> = []
    ) {
        let schema = schema.resolved
        for key in schema.required where !exempt.contains(key) && !entries.contains(where: { $0.key == key }) {
            let property = schema.property(key)?.resolved
            var fix = "add `\(key):`"
            if let value = schema.property(key)?.effectiveDefault, let text = value.scalarText, !NoteIdentifier.containsPlaceholder(text) {
                fix += " (it has a default: `rhizome fix --populate` adds `\(key): \(text)`)"
            } else if let allowed = property?.enumValues {
                fix += " with one of " + Self.list(allowed)
            }
            add(.missingRequired, "missing required property `\(join(keyPath, key))`", at: location, fix: fix)
        }
        for entry in entries {
            let keyLocation = Location(line: entry.keyLine, column: entry.keyColumn)
            if let property = schema.property(entry.key) {
                check(entry.value, against: property, keyPath: join(keyPath, entry.key), at: keyLocation)
                continue
            }
            switch schema.additionalProperties {
            case .allowed: break
            case .forbidden:
                let known = schema.properties.map(\.name)
                // `fix --unsafe` removes unknown top-level keys only; a nested one is the user's to remove.
                var fix = keyPath.isEmpty ? "remove it (`rhizome fix --unsafe` does)" : "remove it"
                if let near = Self.nearest(entry.key, among: known) { fix = "did you mean `\(near)`? Otherwise " + fix }
                add(.unknownKey, "unknown property `\(join(keyPath, entry.key))`: this type's schema is strict (known: \(known.joined(separator: ", ")))", at: keyLocation, fix: fix)
            case .schema(let additional):
                check(entry.value, against: additional, keyPath: join(keyPath, entry.key), at: keyLocation)
            }
        }
    }

    /// Checks one value. `location` is where findings about it point.
    mutating func check(_ node: FrontmatterNode, against schema: JSONSchema, keyPath: String, at location: Location) {
        let schema = schema.resolved
        let value = node.value
        // An unquoted `[[link]]` is reported once, as `unquoted-link`, not also as a list of the wrong type.
        if NoteChecker.isUnquotedLink(node) { return }
        if let types = schema.types, !types.contains(where: { Self.value(value, hasType: $0) }) {
            var fix: String? = nil
            if types.contains(.array), !types.contains(.string), value.scalarText != nil {
                fix = "write it as a list: `\(keyPath.split(separator: ".").last ?? ""): [\(value.scalarText ?? "")]` (`rhizome fix` does)"
            } else if types.contains(.string), case .number(_, let text) = value {
                if schema.format == .date, let date = DateText.normalise(text, format: .date) {
                    fix = "write it as the date `\(date)` (`rhizome fix` does)"
                } else {
                    fix = "quote it: `\"\(text)\"`"
                }
            } else if value == .null {
                fix = "give it a value or remove the key"
            }
            add(.wrongType, "`\(keyPath)` should be \(Self.describe(types)), found \(Self.describe(value))", at: location, fix: fix)
            return  // further keywords would only repeat the problem
        }
        if let allowed = schema.enumValues, !allowed.contains(where: { $0.isJSONEqual(to: value) }) {
            var fix = "use one of " + Self.list(allowed)
            if let text = value.scalarText, let near = Self.nearest(text, among: allowed.compactMap(\.scalarText)) { fix = "did you mean `\(near)`? Allowed: " + Self.list(allowed) }
            add(.notInEnum, "`\(keyPath)` is \(Self.describe(value)), not one of the allowed values", at: location, fix: fix)
        }
        if let expected = schema.constValue, !expected.isJSONEqual(to: value) {
            add(.constMismatch, "`\(keyPath)` must be `\(expected.scalarText ?? expected.typeName)`, found \(Self.describe(value))", at: location, fix: "set it to `\(expected.scalarText ?? "")`")
        }
        switch value {
        case .string(let text), .date(let text):
            checkString(text, against: schema, keyPath: keyPath, at: location)
        case .number(let number, _):
            if let minimum = schema.minimum, number < minimum {
                add(.outOfRange, "`\(keyPath)` is \(Self.format(number)), below the minimum \(Self.format(minimum))", at: location, fix: nil)
            }
            if let maximum = schema.maximum, number > maximum {
                add(.outOfRange, "`\(keyPath)` is \(Self.format(number)), above the maximum \(Self.format(maximum))", at: location, fix: nil)
            }
        case .list(let items):
            if let minimum = schema.minItems, items.count < minimum {
                add(.invalidItemCount, "`\(keyPath)` has \(items.count) item\(items.count == 1 ? "" : "s"), at least \(minimum) expected", at: location, fix: nil)
            }
            if let maximum = schema.maxItems, items.count > maximum {
                add(.invalidItemCount, "`\(keyPath)` has \(items.count) items, at most \(maximum) allowed", at: location, fix: nil)
            }
            if schema.uniqueItems {
                for (index, item) in items.enumerated() where items[..<index].contains(where: { $0.value.isJSONEqual(to: item.value) }) {
                    add(.duplicateItems, "`\(keyPath)` lists \(Self.describe(item.value)) more than once", at: Location(line: item.line, column: item.column), fix: "remove the repeated item")
                }
            }
            if let itemSchema = schema.items {
                for (index, item) in items.enumerated() {
                    check(item, against: itemSchema, keyPath: "\(keyPath)[\(index)]", at: Location(line: item.line, column: item.column))
                }
            }
        case .map(let entries):
            if !schema.properties.isEmpty || !schema.required.isEmpty || !(schema.isOpen) {
                checkMapping(entries, against: schema, keyPath: keyPath, at: location)
            }
        case .bool, .null:
            break
        }
    }

    private mutating func checkString(_ text: String, against schema: JSONSchema, keyPath: String, at location: Location) {
        let length = text.unicodeScalars.count
        if let minimum = schema.minLength, length < minimum {
            add(.invalidLength, "`\(keyPath)` is \(length) character\(length == 1 ? "" : "s") long, at least \(minimum) expected", at: location, fix: nil)
        }
        if let maximum = schema.maxLength, length > maximum {
            add(.invalidLength, "`\(keyPath)` is \(length) characters long, at most \(maximum) allowed", at: location, fix: "shorten it by \(length - maximum) characters")
        }
        if let pattern = schema.pattern, !pattern.matches(text) {
            var fix: String? = nil
            let slug = NoteIdentifier.slug(text)
            if !slug.isEmpty, slug != text, pattern.matches(slug) { fix = "for example `\(slug)`" }
            add(.patternMismatch, "`\(keyPath)` is `\(text)`, which does not match the pattern `\(pattern.source)`", at: location, fix: fix)
        }
        if let format = schema.format, !DateText.matches(text, format: format) {
            var fix: String? = nil
            if let normalised = DateText.normalise(text, format: format) {
                fix = "write it as `\(normalised)` (`rhizome fix` does)"
            } else if format == .date, text.utf8.count == 10, text.split(separator: "-").count == 3 {
                fix = "it is written as YYYY-MM-DD but is not a day of the calendar (month 1–12, a day the month has)"
            } else if format == .date {
                fix = "write dates as YYYY-MM-DD"
            } else if format == .dateTime {
                fix = "write it as YYYY-MM-DDTHH:MM"
            }
            add(.invalidFormat, "`\(keyPath)` is `\(text)`, not a valid \(format.rawValue)", at: location, fix: fix)
        }
    }

    private mutating func add(_ code: FindingCode, _ message: String, at location: Location, fix: String?) {
        findings.append(Finding(code: code, severity: .error, message: message, path: path, line: location.line, column: location.column, fix: fix))
    }

    private func join(_ keyPath: String, _ key: String) -> String { keyPath.isEmpty ? key : keyPath + "." + key }

    // MARK: Descriptions

    static func value(_ value: FrontmatterValue, hasType type: JSONSchema.ValueType) -> Bool {
        switch (type, value) {
        case (.string, .string), (.string, .date), (.number, .number), (.boolean, .bool), (.array, .list), (.object, .map), (.null, .null):
            return true
        case (.integer, .number(let number, _)):
            return number.rounded() == number && number.isFinite
        default:
            return false
        }
    }

    static func describe(_ types: [JSONSchema.ValueType]) -> String {
        let names = types.map { type -> String in
            switch type {
            case .string: return "text"
            case .number: return "a number"
            case .integer: return "a whole number"
            case .boolean: return "true or false"
            case .array: return "a list"
            case .object: return "a mapping"
            case .null: return "empty"
            }
        }
        return names.joined(separator: " or ")
    }

    static func describe(_ value: FrontmatterValue) -> String {
        switch value {
        case .null: return "an empty value"
        case .bool(let flag): return "`\(flag)`"
        case .number(_, let text): return "the number `\(text)`"
        case .string(let text):
            let shown = "`\(text.count > 60 ? String(text.prefix(57)) + "…" : text)`"
            // `"300"` quoted is text: say so, or "should be a number, found `300`" reads as nonsense.
            if Double(text) != nil || ["true", "false", "null"].contains(text) { return "the text " + shown + " (quoted)" }
            return shown
        case .date(let text): return "`\(text)`"
        case .list(let items): return "a list of \(items.count)"
        case .map: return "a mapping"
        }
    }

    static func list(_ values: [FrontmatterValue]) -> String {
        values.map { "`\($0.scalarText ?? $0.typeName)`" }.joined(separator: ", ")
    }

    static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    /// The candidate closest to `text` by edit distance, if close enough to be a likely typo (`NearestName`).
    static func nearest(_ text: String, among candidates: [String]) -> String? {
        NearestName.nearest(text, among: candidates)
    }
}

extension JSONSchema {
    /// No constraints on a mapping's keys.
    var isOpen: Bool {
        if case .allowed = additionalProperties { return true }
        return false
    }
}

extension FrontmatterValue {
    /// Equality as JSON sees it: `1` = `1.0`, a date-like plain scalar = the same quoted string.
    public func isJSONEqual(to other: FrontmatterValue) -> Bool {
        switch (self, other) {
        case (.number(let a, _), .number(let b, _)): return a == b
        case (.string(let a), .string(let b)), (.string(let a), .date(let b)), (.date(let a), .string(let b)), (.date(let a), .date(let b)):
            return a == b
        case (.list(let a), .list(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.value.isJSONEqual(to: $1.value) }
        case (.map(let a), .map(let b)):
            return a.count == b.count && a.allSatisfy { entry in b.contains { $0.key == entry.key && $0.value.value.isJSONEqual(to: entry.value.value) } }
        default:
            return self == other
        }
    }
}

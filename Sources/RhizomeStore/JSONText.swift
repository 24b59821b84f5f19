import RhizomeCore

/// A minimal, fast JSON writer for frontmatter values stored in the index (the bulk path avoids
/// Foundation's JSONSerialization, which costs more than parsing the note).
enum JSONText {
    static func encode(_ value: FrontmatterValue) -> String {
        var output = ""
        write(value, into: &output)
        return output
    }

    /// `encode(.map(entries))` from each entry's value already encoded (`encodedValues[i]` is `encode(entries[i].value.value)`),
    /// so that a note's values are encoded once for both the properties and the whole frontmatter.
    static func encode(_ entries: [FrontmatterEntry], encodedValues: [String]) -> String {
        precondition(entries.count == encodedValues.count, "one encoded value per entry")
        var output = "{"
        output.reserveCapacity(2 + encodedValues.reduce(0) { $0 + $1.utf8.count } + entries.reduce(0) { $0 + $1.key.utf8.count + 4 })
        for (index, (entry, value)) in zip(entries, encodedValues).enumerated() {
            if index > 0 { output += "," }
            writeString(entry.key, into: &output)
            output += ":"
            output += value
        }
        output += "}"
        return output
    }

    static func write(_ value: FrontmatterValue, into output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let number, let text):
            if number.isFinite {
                if number.rounded() == number, abs(number) < 9.0e15 { output += String(Int64(number)) } else { output += String(number) }
            } else {
                writeString(text, into: &output)
            }
        case .string(let text), .date(let text): writeString(text, into: &output)
        case .list(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                write(item.value, into: &output)
            }
            output += "]"
        case .map(let entries):
            output += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { output += "," }
                writeString(entry.key, into: &output)
                output += ":"
                write(entry.value.value, into: &output)
            }
            output += "}"
        }
    }

    /// `strings` as a JSON array (for `json_each(?)` in SQL).
    static func array(_ strings: some Sequence<String>) -> String {
        var output = "["
        for (index, text) in strings.enumerated() {
            if index > 0 { output += "," }
            writeString(text, into: &output)
        }
        return output + "]"
    }

    static func writeString(_ text: String, into output: inout String) {
        JSONString.write(text, into: &output)
    }
}

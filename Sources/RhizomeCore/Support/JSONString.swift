/// Text as a JSON string literal: quotes, backslashes and control characters escaped, everything else as
/// it is. The index writes frontmatter as JSON with it, and Bases print objects with it.
public enum JSONString {
    /// Appends `text` to `output` as a JSON string, with its quotes.
    @inlinable
    public static func write(_ text: String, into output: inout String) {
        output += "\""
        var needsEscaping = false
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            needsEscaping = true
            break
        }
        if !needsEscaping {
            output += text
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }

    /// `text` as a JSON string, with its quotes.
    public static func quoted(_ text: String) -> String {
        var output = ""
        write(text, into: &output)
        return output
    }
}

/// The ASCII bytes the byte-level scanners compare against (`MarkdownScanner`, `LinkLocator`), by name.
enum ASCII {
    static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t")
    static let backtick = UInt8(ascii: "`"), tilde = UInt8(ascii: "~"), hash = UInt8(ascii: "#"), backslash = UInt8(ascii: "\\")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]"), openParen = UInt8(ascii: "("), closeParen = UInt8(ascii: ")")
    static let bang = UInt8(ascii: "!"), lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">"), pipe = UInt8(ascii: "|")
    static let caret = UInt8(ascii: "^"), dash = UInt8(ascii: "-"), equals = UInt8(ascii: "="), star = UInt8(ascii: "*"), plus = UInt8(ascii: "+")
    static let colon = UInt8(ascii: ":"), underscore = UInt8(ascii: "_"), percent = UInt8(ascii: "%")
    static let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'")
}

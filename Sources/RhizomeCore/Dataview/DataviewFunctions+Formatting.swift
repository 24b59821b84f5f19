import Foundation

/// Dataview's functions that format numbers and durations and move dates to the local time zone:
/// `durationformat`, `currencyformat`, `localtime`.
extension DataviewFunctions {
    static let formatting: [String: Implementation] = [
        "durationformat": { arguments, context throws(DataviewError) in
            let (value, format) = try two(arguments, context)
            switch (value, format) {
            case (.duration(let duration), .string(let pattern)): return .string(DataviewDurationFormat.format(duration, pattern))
            case (.null, .string): return .null
            default: throw context.failure(arguments)
            }
        },
        "currencyformat": { arguments, context throws(DataviewError) in
            // In US English, as Rhizome formats every date and number; Dataview uses Obsidian's language.
            guard (1...2).contains(arguments.count) else { throw context.failure(arguments) }
            var code = "USD"
            if arguments.count == 2 {
                guard case .string(let given) = arguments[1] else { throw context.failure(arguments) }
                code = given
            }
            switch arguments[0] {
            case .null: return .null
            case .number(let amount): return .string(try currencyText(amount, code: code))
            default: throw context.failure(arguments)
            }
        },
        "localtime": { arguments, context throws(DataviewError) in
            switch try one(arguments, context) {
            case .null: return .null
            case .date(let date): return .date(date.inLocalTime())
            default: throw context.failure(arguments)
            }
        },
    ]

    /// `amount` as money in the ISO 4217 currency `code` (any case), as JavaScript's
    /// `Intl.NumberFormat("en-US", {style: "currency"})` writes it: `€123,456.79`, `¥123,457`, `-$5.00`;
    /// a well-formed code without a symbol is written out (`XYZ 1.50`).
    static func currencyText(_ amount: Double, code: String) throws(DataviewError) -> String {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
            throw .evaluation(message: "currencyformat(): `\(code)` is not a currency code; give three letters from ISO 4217, like \"EUR\"")
        }
        let formatter = NumberFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.numberStyle = .currency
        formatter.currencyCode = code.uppercased()
        formatter.roundingMode = .halfUp  // JavaScript rounds halves away from zero
        guard amount.isFinite else {
            // `$NaN`, `$∞`, `-$∞`: the pattern of 1 with the number replaced.
            let one = formatter.string(from: 1) ?? "1"
            let number = amount.isNaN ? "NaN" : "∞"
            let text = one.replacingOccurrences(of: "[0-9][0-9.,]*", with: number, options: .regularExpression)
            return amount < 0 ? "-" + text : text
        }
        guard let text = formatter.string(from: NSNumber(value: amount)) else {
            throw .evaluation(message: "currencyformat(): cannot format \(DataviewNumber.text(amount)) in \(code)")
        }
        return text
    }
}

/// Dataview's binary operators over typed values (`src/expression/binaryop.ts`): arithmetic on numbers,
/// dates and durations, string and list concatenation, and comparisons by the total order of values.
enum DataviewOperators {
    static func apply(_ op: DataviewBinaryOperator, _ left: DataviewValue, _ right: DataviewValue) throws(DataviewError) -> DataviewValue {
        switch op {
        case .equal: return .boolean(DataviewValue.compare(left, right) == 0)
        case .notEqual: return .boolean(DataviewValue.compare(left, right) != 0)
        case .less: return .boolean(DataviewValue.compare(left, right) < 0)
        case .lessOrEqual: return .boolean(DataviewValue.compare(left, right) <= 0)
        case .greater: return .boolean(DataviewValue.compare(left, right) > 0)
        case .greaterOrEqual: return .boolean(DataviewValue.compare(left, right) >= 0)
        case .and: return .boolean(left.isTruthy && right.isTruthy)
        case .or: return .boolean(left.isTruthy || right.isTruthy)
        case .plus, .minus, .times, .divide, .modulo: return try arithmetic(op, left, right)
        }
    }

    private static func arithmetic(_ op: DataviewBinaryOperator, _ left: DataviewValue, _ right: DataviewValue) throws(DataviewError) -> DataviewValue {
        switch (op, left, right) {
        case (_, .null, .null), (.plus, .date, .null), (.minus, .date, .null), (.plus, .null, .date), (.minus, .null, .date):
            return .null
        case (.plus, .number(let a), .number(let b)): return .number(a + b)
        case (.minus, .number(let a), .number(let b)): return .number(a - b)
        case (.times, .number(let a), .number(let b)): return .number(a * b)
        case (.divide, .number(let a), .number(let b)): return .number(a / b)
        case (.modulo, .number(let a), .number(let b)): return .number(a.truncatingRemainder(dividingBy: b))
        case (.plus, .string(let a), _): return .string(a + DataviewText.plain(right))
        case (.plus, _, .string(let b)): return .string(DataviewText.plain(left) + b)
        case (.times, .string(let text), .number(let count)), (.times, .number(let count), .string(let text)):
            let times = max(0, Int(clamping: count, limit: Double(DataviewFunctions.maximumPaddedLength) + 1))
            guard times <= 1 || text.utf16.count * times <= DataviewFunctions.maximumPaddedLength else {
                throw .evaluation(message: "`\(DataviewNumber.text(count))` copies of a text would be more than \(DataviewFunctions.maximumPaddedLength) characters")
            }
            return .string(String(repeating: text, count: times))
        case (.plus, .date(let date), .duration(let duration)), (.plus, .duration(let duration), .date(let date)):
            return .date(date.adding(duration))
        case (.minus, .date(let date), .duration(let duration)): return .date(date.adding(duration, sign: -1))
        case (.minus, .date(let a), .date(let b)): return .duration(a.difference(from: b))
        case (.plus, .duration(let a), .duration(let b)): return .duration(a + b)
        case (.minus, .duration(let a), .duration(let b)): return .duration(a + b.scaled(by: -1))
        case (.times, .duration(let duration), .number(let factor)), (.times, .number(let factor), .duration(let duration)):
            return .duration(duration.scaled(by: factor))
        case (.divide, .duration(let duration), .number(let divisor)): return .duration(duration.scaled(by: 1 / divisor))
        case (.plus, .list(let a), .list(let b)): return .list(a + b)
        case (.plus, .object(let a), .object(let b)):
            var merged = a
            for (key, value) in b.pairs { merged[key] = value }
            return .object(merged)
        default:
            throw .evaluation(message: "no implementation of `\(left.typeName) \(op.rawValue) \(right.typeName)`")
        }
    }

    /// `date.year`, `.month`, `.day`, `.hour`, `.minute`, `.second`, `.millisecond`, `.weekday` (1 = Monday), `.week`, `.weekyear`.
    static func datePart(_ name: String, of date: DataviewDate) -> DataviewValue {
        switch name {
        case "year": return .number(Double(date.year))
        case "month": return .number(Double(date.month))
        case "day": return .number(Double(date.day))
        case "hour": return .number(Double(date.hour))
        case "minute": return .number(Double(date.minute))
        case "second": return .number(Double(date.second))
        case "millisecond": return .number(Double(date.millisecond))
        case "weekday": return .number(Double(date.weekday))
        // Dataview's own meanings: `week` is the week of the month, `weekyear` the ISO week number.
        case "week": return .number(Double(date.day / 7 + 1))
        case "weekyear": return .number(Double(date.weekNumber))
        default: return .null
        }
    }

    /// `duration.days` and the other units: the whole duration in that unit, possibly fractional (Luxon's
    /// `shiftTo`); singular and plural names both work, except `weeks`.
    static func durationPart(_ name: String, of duration: DataviewDuration) -> DataviewValue {
        let keyPath: WritableKeyPath<DataviewDuration, Double>
        switch name {
        case "year", "years": keyPath = \.years
        case "month", "months": keyPath = \.months
        case "weeks": keyPath = \.weeks
        case "day", "days": keyPath = \.days
        case "hour", "hours": keyPath = \.hours
        case "minute", "minutes": keyPath = \.minutes
        case "second", "seconds": keyPath = \.seconds
        case "millisecond", "milliseconds": keyPath = \.milliseconds
        default: return .null
        }
        return .number(duration.total(in: keyPath))
    }
}

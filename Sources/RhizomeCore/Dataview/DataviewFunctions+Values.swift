import Foundation

/// Dataview's functions on types, dates and links: `default`, `typeof`, `date`, `dur`, `link`, `meta`, `striptime` …
extension DataviewFunctions {
    static let values: [String: Implementation] = [
        "default": { arguments, context throws(DataviewError) in
            let (value, fallback) = try two(arguments, context)
            return value.isNull ? fallback : value
        },
        "display": { arguments, context throws(DataviewError) in
            .string(DataviewDisplay.text(try one(arguments, context)))
        },
        "ldefault": { arguments, context throws(DataviewError) in
            // `default` without the element-wise step: a list is a value like any other.
            guard arguments.count == 2 else { throw context.failure(arguments) }
            return arguments[0].isNull ? arguments[1] : arguments[0]
        },
        "extract": { arguments, context throws(DataviewError) in
            // A new object of the named keys in the order named, a missing one null (as Dataview's index
            // operator gives it); a list of objects, each.
            guard let first = arguments.first else { throw context.failure(arguments) }
            var keys: [String] = []
            for argument in arguments.dropFirst() {
                guard case .string(let key) = argument else {
                    throw .evaluation(message: "extract(object, key1, ...) must be called with string keys")
                }
                keys.append(key)
            }
            func extract(_ value: DataviewValue) -> DataviewValue {
                if case .list(let items) = value { return .list(items.map(extract)) }
                let object: DataviewObject? = if case .object(let object) = value { object } else { nil }
                return .object(DataviewObject(keys.map { ($0, object?[$0] ?? .null) }))
            }
            return extract(first)
        },
        "hash": { arguments, context throws(DataviewError) in
            // cyrb53 of the seed and text (joined), with the variant as its seed: a whole number below 2^53.
            guard (2...3).contains(arguments.count), case .string(let seed) = arguments[0] else { throw context.failure(arguments) }
            var text = seed, variant = 0.0
            switch (arguments.count, arguments[1], arguments.count == 3 ? arguments[2] : .null) {
            case (2, .number(let number), _): variant = number
            case (2, .string(let more), _): text += more
            case (3, .string(let more), .number(let number)): text += more; variant = number
            default: throw context.failure(arguments)
            }
            return .number(Double(DataviewHash.cyrb53(text, seed: variant)))
        },
        "choice": { arguments, context throws(DataviewError) in
            guard arguments.count == 3 else { throw context.failure(arguments) }
            return arguments[0].isTruthy ? arguments[1] : arguments[2]
        },
        "typeof": { arguments, context throws(DataviewError) in
            .string(try one(arguments, context).typeName)
        },
        "number": unary { value, context throws(DataviewError) in
            switch value {
            case .number: return value
            case .string(let text):
                guard let range = text.range(of: "-?[0-9]+(\\.[0-9]+)?", options: .regularExpression) else { return .null }
                return Double(text[range]).map(DataviewValue.number) ?? .null
            default: return .null
            }
        },
        "string": { arguments, context throws(DataviewError) in
            .string(DataviewText.plain(try one(arguments, context)))
        },
        "date": { arguments, context throws(DataviewError) in
            if arguments.count == 2 { return try dateFromFormat(arguments[0], arguments[1], context) }
            let value = try one(arguments, context)
            switch value {
            case .date: return value
            case .string(let text):
                if let relative = DataviewRelativeDate(word: text) {
                    return .date(relativeDate(relative, now: context.evaluator.now))
                }
                return DataviewDate.parse(text.trimmingSpaces, allowsSpaceBeforeTime: false).map(DataviewValue.date) ?? .null
            case .link(let link):
                if let display = link.display, let date = DataviewDate.parse(display, allowsSpaceBeforeTime: false) { return .date(date) }
                if let date = DataviewDate.parse(link.fileName, allowsSpaceBeforeTime: false) { return .date(date) }
                guard case .object(let file)? = context.evaluator.linkedPage(link)?["file"], case .date(let day)? = file["day"] else {
                    return .null
                }
                return .date(day)
            default:
                return .null
            }
        },
        "dur": { arguments, context throws(DataviewError) in
            let value = try one(arguments, context)
            switch value {
            case .duration: return value
            case .string(let text): return DataviewDuration.parse(text).map(DataviewValue.duration) ?? .null
            default: return .null
            }
        },
        "dateformat": { arguments, context throws(DataviewError) in
            switch try two(arguments, context) {
            case (.date(let date), .string(let format)): return .string(DataviewDateFormat.format(date, format))
            case (.null, .string): return .null
            default: throw context.failure(arguments)
            }
        },
        "striptime": unary { value, context throws(DataviewError) in
            guard case .date(let date) = value else { return try nullOr([value], context) }
            return .date(date.startOfDay)
        },
        "link": { arguments, context throws(DataviewError) in
            // `link(path)`, `link(path or link, display)`, `link(path, display, embed)`; null in, null out,
            // except that a null display leaves the link as it is.
            guard (1...3).contains(arguments.count) else { throw context.failure(arguments) }
            var link: DataviewLink
            switch arguments[0] {
            case .string(let path): link = context.evaluator.resolveLink(path)
            case .link(let existing) where arguments.count < 3: link = existing
            case .null where arguments.count < 3: return .null
            default: throw context.failure(arguments)
            }
            switch (arguments.count > 1 ? arguments[1] : .null, arguments.count > 2 ? arguments[2] : .boolean(link.isEmbed)) {
            case (.null, _) where arguments.count < 3: return .link(link)
            case (.string(let display), .boolean(let embeds)):
                link.display = display
                link.isEmbed = embeds
                return .link(link)
            default: throw context.failure(arguments)
            }
        },
        "embed": { arguments, context throws(DataviewError) in
            // `embed(link)` embeds it; `embed(link, false)` makes it a plain link again.
            guard (1...2).contains(arguments.count) else { throw context.failure(arguments) }
            if arguments.contains(where: \.isNull) { return .null }
            guard case .link(var link) = arguments[0] else { throw context.failure(arguments) }
            if arguments.count == 2 {
                guard case .boolean(let embeds) = arguments[1] else { throw context.failure(arguments) }
                link.isEmbed = embeds
            } else {
                link.isEmbed = true
            }
            return .link(link)
        },
        "elink": { arguments, context throws(DataviewError) in
            // A link to a web address, shown as the display text (the address when there is none).
            guard (1...2).contains(arguments.count) else { throw context.failure(arguments) }
            if arguments[0].isNull { return .null }
            guard case .string(let url) = arguments[0] else { throw context.failure(arguments) }
            switch arguments.count == 2 ? arguments[1] : .null {
            case .null: return .externalLink(DataviewExternalLink(url: url, display: url))
            case .string(let display): return .externalLink(DataviewExternalLink(url: url, display: display))
            default: throw context.failure(arguments)
            }
        },
        "meta": { arguments, context throws(DataviewError) in
            guard case .link(let link) = try one(arguments, context) else { return .null }
            // As Dataview's link objects: a block's subpath is its id, without the `^`.
            let isBlock = link.subpath?.hasPrefix("^") ?? false
            let subpath = link.subpath.map { isBlock ? String($0.dropFirst()) : $0 }
            return .object(DataviewObject([
                ("display", link.display.map(DataviewValue.string) ?? .null), ("embed", .boolean(link.isEmbed)),
                ("path", .string(link.path)), ("subpath", subpath.map(DataviewValue.string) ?? .null),
                ("type", .string(link.subpath == nil ? "file" : (isBlock ? "block" : "header"))),
            ]))
        },
    ]

    /// `date(text, format)`: Luxon's `fromFormat`; text that does not match fails the row, as in Dataview.
    /// (Dataview maps `date(value)` over a list, but not `date(text, format)`.)
    private static func dateFromFormat(_ text: DataviewValue, _ format: DataviewValue, _ context: CallContext) throws(DataviewError) -> DataviewValue {
        switch (text, format) {
        case (.null, .string):
            return .null
        case (.string(let given), .string(let pattern)):
            guard let date = DataviewDateFormat.parse(given, format: pattern, now: context.evaluator.now) else {
                throw .evaluation(message: "date(\"\(given)\", \"\(pattern)\"): the text does not match the format, or names no real date")
            }
            return .date(date)
        default:
            throw context.failure([text, format])
        }
    }

    static func relativeDate(_ relative: DataviewRelativeDate, now: DataviewDate) -> DataviewDate {
        let today = now.startOfDay
        switch relative {
        case .now: return now
        case .today: return today
        case .tomorrow: return today.adding(DataviewDuration(days: 1))
        case .yesterday: return today.adding(DataviewDuration(days: -1))
        case .sow: return today.adding(DataviewDuration(days: Double(1 - today.weekday)))
        case .eow: return endOfDay(today.adding(DataviewDuration(days: Double(7 - today.weekday))))
        case .som: return DataviewDate(year: today.year, month: today.month, day: 1)
        case .eom: return endOfDay(DataviewDate(year: today.year, month: today.month, day: DataviewDate.daysInMonth(today.year, today.month)))
        case .soy: return DataviewDate(year: today.year, month: 1, day: 1)
        case .eoy: return endOfDay(DataviewDate(year: today.year, month: 12, day: 31))
        }
    }

    private static func endOfDay(_ date: DataviewDate) -> DataviewDate {
        var end = date
        end.hour = 23
        end.minute = 59
        end.second = 59
        end.millisecond = 999
        end.hasTime = true
        return end
    }
}

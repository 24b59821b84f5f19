import Foundation

/// Equality and order of Bases values: `==`/`!=` (and `contains`, `unique`), `< <= > >=`, and the total order
/// views and `list.sort()` sort by.
///
/// Equality follows JavaScript's loose `==` between numbers, numeric text and booleans (`"1" == 1`,
/// `true == 1`), compares lists and objects by their contents, and compares links as Obsidian's help says:
/// by the file they resolve to, else by their link text; a link equals a file it resolves to.
public enum BaseComparison {
    /// `a == b`. `null` equals only `null`. Text compares by Swift's `==` (canonically equivalent Unicode is
    /// equal, so a name typed in NFC matches a macOS file name in NFD), not JavaScript's code units.
    ///
    /// Links: two links are equal when both resolve to the same file, or neither resolves and their targets
    /// are the same text. A link equals a file when it resolves to that file. A link equals text when the text
    /// is its target, its resolved path, or that path without `.md`; text written as `[[…]]` is resolved from
    /// the vault root and compared as a link. A file equals text that is its path, with or without `.md`.
    public static func equal(_ a: BaseValue, _ b: BaseValue, environment: BaseEnvironment) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.null, _), (_, .null): return false
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.boolean(let x), .boolean(let y)): return x == y
        case (.number, .string), (.string, .number), (.boolean, .number), (.number, .boolean),
             (.boolean, .string), (.string, .boolean):
            // JavaScript converts both sides to numbers; text that is not a number equals nothing.
            guard let x = looseNumber(a), let y = looseNumber(b) else { return false }
            return x == y
        case (.date(let x), .date(let y)):
            if x.offsetMinutes == nil, y.offsetMinutes == nil {
                return x.wallClockMilliseconds == y.wallClockMilliseconds
            }
            return BaseDates.epochMilliseconds(of: x, timeZone: environment.timeZone)
                == BaseDates.epochMilliseconds(of: y, timeZone: environment.timeZone)
        case (.date(let date), .string(let text)), (.string(let text), .date(let date)):
            return BaseDates.text(of: date) == text
        case (.duration(let x), .duration(let y)): return x.totalMilliseconds == y.totalMilliseconds
        case (.list(let x), .list(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1, environment: environment) }
        case (.object(let x), .object(let y)):
            guard x.entries.count == y.entries.count else { return false }
            return x.entries.allSatisfy { entry in
                guard let other = y[entry.key] else { return false }
                return equal(entry.value, other, environment: environment)
            }
        case (.link(let x), .link(let y)): return linksEqual(x, y)
        case (.link(let link), .file(let file)), (.file(let file), .link(let link)):
            return link.resolvedPath == file.path
        case (.link(let link), .string(let text)), (.string(let text), .link(let link)):
            return linkEqualsText(link, text, environment: environment)
        case (.file(let x), .file(let y)): return x.path == y.path
        case (.file(let file), .string(let text)), (.string(let text), .file(let file)):
            return text == file.path || text + ".md" == file.path
        case (.regex(let x), .regex(let y)): return x.pattern == y.pattern && x.flags == y.flags
        case (.html(let x), .html(let y)), (.icon(let x), .icon(let y)), (.image(let x), .image(let y)): return x == y
        default: return false
        }
    }

    /// The order of `a` and `b` for `< <= > >=`: negative, zero or positive; nil when they do not compare
    /// (the operator is then false, as JavaScript's comparisons with `NaN` are).
    ///
    /// Numbers, booleans (as 0 and 1) and numeric text compare as numbers (JavaScript's `2 < "10"`); two texts
    /// compare by UTF-16 code units (JavaScript's `"B" < "a"`); dates by their instant; durations by length, and
    /// a duration with a number as milliseconds. `null` compares with nothing: JavaScript's `null < 1` (null as
    /// 0) would make a missing property pass `price < 10`.
    public static func compare(_ a: BaseValue, _ b: BaseValue, environment: BaseEnvironment) -> Int? {
        switch (a, b) {
        case (.string(let x), .string(let y)): return codeUnitOrder(x, y)
        case (.date(let x), .date(let y)):
            // Both on the environment's wall clock (no offset): the clock's order is the instants' order, and
            // needs no time-zone lookup (sorting 10,000 dates made 260,000 of them).
            if x.offsetMinutes == nil, y.offsetMinutes == nil {
                return numericOrder(Double(x.wallClockMilliseconds), Double(y.wallClockMilliseconds))
            }
            return numericOrder(
                BaseDates.epochMilliseconds(of: x, timeZone: environment.timeZone),
                BaseDates.epochMilliseconds(of: y, timeZone: environment.timeZone))
        case (.duration(let x), .duration(let y)): return numericOrder(x.totalMilliseconds, y.totalMilliseconds)
        case (.duration(let x), .number(let y)): return numericOrder(x.totalMilliseconds, y)
        case (.number(let x), .duration(let y)): return numericOrder(x, y.totalMilliseconds)
        default:
            guard let x = looseNumber(a), let y = looseNumber(b) else { return nil }
            return numericOrder(x, y)
        }
    }

    /// A total order for sorting rows and `list.sort()`, ascending. Empty values (null, `""`, `[]`, `{}`) come
    /// after every other value, so a column sorted A→Z lists the notes that have it first (use
    /// `sortOrder(_:_:descending:environment:)` to keep them last when sorting Z→A too). Otherwise:
    /// - numbers numerically (`NaN` after every number), booleans `false` before `true`;
    /// - text, links (by shown text), files (by path) and `html`/`icon`/`image` values as text, case- and
    ///   accent-insensitively with runs of digits compared as numbers ("Note 2" before "Note 10"), as
    ///   Obsidian's file list and `localeCompare(…, {numeric: true})` order names; ties by code units;
    /// - dates chronologically, durations by length, lists element by element, objects by their text;
    /// - different kinds in a fixed order: booleans, numbers, dates, durations, text, lists, objects, regexps.
    public static func sortOrder(_ a: BaseValue, _ b: BaseValue, environment: BaseEnvironment) -> Int {
        switch (a.isEmpty, b.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): break
        }
        let rankA = sortRank(a), rankB = sortRank(b)
        if rankA != rankB { return rankA < rankB ? -1 : 1 }
        switch (a, b) {
        case (.boolean(let x), .boolean(let y)): return x == y ? 0 : (x ? 1 : -1)
        case (.number(let x), .number(let y)):
            if x.isNaN || y.isNaN { return x.isNaN == y.isNaN ? 0 : (x.isNaN ? 1 : -1) }
            return plainOrder(x, y)
        case (.date, .date), (.duration, .duration): return compare(a, b, environment: environment) ?? 0
        case (.list(let x), .list(let y)):
            for (left, right) in zip(x, y) {
                let result = sortOrder(left, right, environment: environment)
                if result != 0 { return result }
            }
            return plainOrder(Double(x.count), Double(y.count))
        default: return naturalOrder(BaseText.string(a), BaseText.string(b))
        }
    }

    /// `sortOrder` for an ascending or descending sort, keeping empty values last in both directions.
    public static func sortOrder(_ a: BaseValue, _ b: BaseValue, descending: Bool, environment: BaseEnvironment) -> Int {
        guard descending, !a.isEmpty, !b.isEmpty else { return sortOrder(a, b, environment: environment) }
        return -sortOrder(a, b, environment: environment)
    }

    /// The values without repeats, first occurrences kept in order (`list.unique()`, the `Unique` summary).
    /// Texts, numbers and booleans are grouped by the number or text they stand for, so this agrees with
    /// `equal` except where JavaScript's `==` is not transitive: `""` is kept apart from `0`.
    public static func unique(_ values: [BaseValue], environment: BaseEnvironment) -> [BaseValue] {
        var seenKeys = Set<String>()
        var others: [BaseValue] = []
        var result: [BaseValue] = []
        for value in values {
            if let key = primitiveKey(value) {
                if seenKeys.insert(key).inserted { result.append(value) }
            } else if !others.contains(where: { equal($0, value, environment: environment) }) {
                others.append(value)
                result.append(value)
            }
        }
        return result
    }

    /// Text order by UTF-16 code units, as JavaScript's `<` compares strings.
    static func codeUnitOrder(_ x: String, _ y: String) -> Int {
        for (left, right) in zip(x.utf16, y.utf16) where left != right { return left < right ? -1 : 1 }
        return plainOrder(Double(x.utf16.count), Double(y.utf16.count))
    }

    /// Case- and accent-insensitive order with digit runs compared by value, ties broken by code units.
    static func naturalOrder(_ x: String, _ y: String) -> Int {
        let left = chunks(x), right = chunks(y)
        for (a, b) in zip(left, right) {
            let result: Int
            switch (a.isDigits, b.isDigits) {
            case (true, true): result = digitOrder(a.text, b.text)
            case (false, false):
                switch a.text.compare(b.text, options: [.caseInsensitive, .diacriticInsensitive]) {
                case .orderedAscending: result = -1
                case .orderedDescending: result = 1
                case .orderedSame: result = 0
                }
            default: result = a.isDigits ? -1 : 1
            }
            if result != 0 { return result }
        }
        if left.count != right.count { return left.count < right.count ? -1 : 1 }
        return codeUnitOrder(x, y)
    }

    private static func linksEqual(_ x: BaseLink, _ y: BaseLink) -> Bool {
        switch (x.resolvedPath, y.resolvedPath) {
        case (let left?, let right?): return left == right
        case (nil, nil): return x.target == y.target
        default: return false
        }
    }

    private static func linkEqualsText(_ link: BaseLink, _ text: String, environment: BaseEnvironment) -> Bool {
        if text.hasPrefix("[["), text.hasSuffix("]]") {
            return linksEqual(link, BaseFunctions.parseLink(text, environment: environment))
        }
        if text == link.target { return true }
        guard let path = link.resolvedPath else { return false }
        return text == path || text + ".md" == path
    }

    /// JavaScript's ToNumber for the loose comparisons: numbers, booleans, and text (nil when not numeric).
    private static func looseNumber(_ value: BaseValue) -> Double? {
        switch value {
        case .number(let number): return number.isNaN ? nil : number
        case .boolean(let flag): return flag ? 1 : 0
        case .string(let text): return BaseText.number(fromText: text)
        default: return nil
        }
    }

    /// -1, 0 or 1; nil when either is `NaN`.
    private static func numericOrder(_ x: Double, _ y: Double) -> Int? {
        if x.isNaN || y.isNaN { return nil }
        return plainOrder(x, y)
    }

    private static func plainOrder(_ x: Double, _ y: Double) -> Int {
        x < y ? -1 : (x > y ? 1 : 0)
    }

    private static func sortRank(_ value: BaseValue) -> Int {
        switch value {
        case .boolean: return 0
        case .number: return 1
        case .date: return 2
        case .duration: return 3
        case .string, .link, .file, .html, .icon, .image, .null: return 4
        case .list: return 5
        case .object: return 6
        case .regex: return 7
        }
    }

    private static func primitiveKey(_ value: BaseValue) -> String? {
        switch value {
        case .null: return "null"
        case .boolean(let flag): return "n:" + (flag ? "1" : "0")
        case .number(let number): return "n:" + BaseText.number(number == 0 ? 0 : number)
        case .string(let text):
            if !BaseText.trimmedLikeJavaScript(text).isEmpty, let number = BaseText.number(fromText: text) {
                return "n:" + BaseText.number(number == 0 ? 0 : number)
            }
            return "s:" + text
        default: return nil
        }
    }

    private static func chunks(_ text: String) -> [(text: String, isDigits: Bool)] {
        var result: [(text: String, isDigits: Bool)] = []
        var current = ""
        var currentIsDigits = false
        for character in text {
            let isDigit = character.isASCII && character.isNumber
            if !current.isEmpty && isDigit != currentIsDigits {
                result.append((current, currentIsDigits))
                current = ""
            }
            current.append(character)
            currentIsDigits = isDigit
        }
        if !current.isEmpty { result.append((current, currentIsDigits)) }
        return result
    }

    private static func digitOrder(_ x: String, _ y: String) -> Int {
        let a = x.drop { $0 == "0" }, b = y.drop { $0 == "0" }
        if a.count != b.count { return a.count < b.count ? -1 : 1 }
        for (left, right) in zip(a, b) where left != right { return left < right ? -1 : 1 }
        return 0
    }
}

extension DataviewDate {
    /// Milliseconds of the wall-clock time, a bare date as its midnight (its time fields may hold anything).
    var wallClockMilliseconds: Int64 {
        let local = localMilliseconds
        guard !hasTime else { return local }
        let intoDay = local % 86_400_000
        return local - (intoDay < 0 ? intoDay + 86_400_000 : intoDay)
    }
}

/// The words `date(…)` accepts besides dates: `today`, `now`, start and end of week, month and year.
public enum DataviewRelativeDate: String, Sendable, CaseIterable {
    case today, now, tomorrow, yesterday, sow, eow, som, eom, soy, eoy

    /// The word in any case, short (`sow`) or long as Dataview also spells it (`start-of-week`).
    public init?(word: String) {
        let word = word.lowercased()
        if let relative = DataviewRelativeDate(rawValue: word) {
            self = relative
            return
        }
        switch word {
        case "start-of-week": self = .sow
        case "end-of-week": self = .eow
        case "start-of-month": self = .som
        case "end-of-month": self = .eom
        case "start-of-year": self = .soy
        case "end-of-year": self = .eoy
        default: return nil
        }
    }
}

import Foundation

/// Reading a wall-clock time (a floating date) in a time zone as JavaScript's `Date` does, which is what
/// Obsidian and Moment.js see.
extension TimeZone {
    /// The offset (minutes east of UTC) that the wall-clock time `localMilliseconds` (milliseconds since
    /// 1970-01-01T00:00 on the wall clock) has here. A time the clocks pass twice takes the first (the larger
    /// offset); a time they skip takes the offset from before the change, so it moves on by the gap.
    func offsetMinutes(atWallClock localMilliseconds: Int64) -> Int {
        func offsetSeconds(at instant: Int64) -> Int {
            secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))
        }
        let before = offsetSeconds(at: localMilliseconds - 86_400_000)
        let candidates = [before, offsetSeconds(at: localMilliseconds), offsetSeconds(at: localMilliseconds + 86_400_000)]
        let fitting = candidates.filter { offsetSeconds(at: localMilliseconds - Int64($0) * 1000) == $0 }
        return (fitting.max() ?? before) / 60
    }
}

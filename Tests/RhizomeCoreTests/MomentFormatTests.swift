/// Tests of `MomentFormat`, Moment.js formatting in English. Every expected string is what Moment 2.29.4 (the
/// version Obsidian ships) prints for the same wall-clock time with `TZ=Europe/Berlin`.
import Foundation
import Testing
@testable import RhizomeCore

@Suite("Moment.js formats")
struct MomentFormatTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let utc = TimeZone(identifier: "UTC")!

    /// Sunday 5 January 2025, 14:05:09.123, a floating time read in Berlin (UTC+1 then).
    static let sunday = DataviewDate(year: 2025, month: 1, day: 5, hour: 14, minute: 5, second: 9, millisecond: 123, hasTime: true)

    func format(_ date: DataviewDate, _ pattern: String) -> String {
        MomentFormat.format(date, pattern, floatingTimeZone: Self.berlin)
    }

    @Test("years, quarters and months")
    func yearsQuartersAndMonths() {
        #expect(format(Self.sunday, "YYYY YY Y Q Qo M MM MMM MMMM Mo") == "2025 25 2025 1 1st 1 01 Jan January 1st")
        #expect(format(Self.sunday, "YYYYY YYYYYY") == "02025 +002025")
        #expect(format(Self.sunday, "YYY") == "252025", "YYY is YY then Y, as Moment reads it")
        #expect(format(Self.sunday, "MMMMM") == "January1")
    }

    @Test("days of the month and of the year")
    func daysOfTheMonthAndYear() {
        #expect(format(Self.sunday, "D DD Do DDD DDDD DDDo") == "5 05 5th 5 005 5th")
        let late = DataviewDate(year: 2025, month: 11, day: 11, hour: 22, minute: 1, second: 2, millisecond: 345, hasTime: true)
        #expect(format(late, "D Do DDD DDDD") == "11 11th 315 315")
    }

    @Test("days of the week: 2025-01-05 is a Sunday, so d is 0 and E is 7")
    func daysOfTheWeek() {
        #expect(format(Self.sunday, "d dd ddd dddd do E e") == "0 Su Sun Sunday 0th 7 0")
        let tuesday = DataviewDate(year: 2025, month: 7, day: 15, hasTime: false)
        #expect(format(tuesday, "d dd ddd dddd do E e") == "2 Tu Tue Tuesday 2nd 2 2")
    }

    @Test("locale weeks start on Sunday with week 1 holding 1 January; ISO weeks start on Monday")
    func weeks() {
        let tokens = "w ww wo W WW Wo gg gggg ggggg GG GGGG GGGGG"
        #expect(format(Self.sunday, tokens) == "2 02 2nd 1 01 1st 25 2025 02025 25 2025 02025")
        func day(_ year: Int, _ month: Int, _ day: Int) -> DataviewDate { DataviewDate(year: year, month: month, day: day) }
        #expect(format(day(2024, 12, 29), tokens) == "1 01 1st 52 52 52nd 25 2025 02025 24 2024 02024")
        #expect(format(day(2020, 12, 31), tokens) == "1 01 1st 53 53 53rd 21 2021 02021 20 2020 02020")
        #expect(format(day(2021, 1, 3), tokens) == "2 02 2nd 53 53 53rd 21 2021 02021 20 2020 02020")
        #expect(format(day(2027, 1, 1), tokens) == "1 01 1st 53 53 53rd 27 2027 02027 26 2026 02026")
        #expect(format(day(2016, 1, 1), tokens) == "1 01 1st 53 53 53rd 16 2016 02016 15 2015 02015")
        #expect(format(day(2012, 12, 30), tokens) == "1 01 1st 52 52 52nd 13 2013 02013 12 2012 02012")
        #expect(format(day(2025, 11, 11), tokens) == "46 46 46th 46 46 46th 25 2025 02025 25 2025 02025")
    }

    @Test("hours on the 24-hour, 12-hour and 1–24 clocks, minutes, seconds, fractions, meridiem")
    func timeOfDay() {
        #expect(format(Self.sunday, "H HH h hh k kk m mm s ss") == "14 14 2 02 14 14 5 05 9 09")
        #expect(format(Self.sunday, "S SS SSS SSSS SSSSSS SSSSSSSSS A a") == "1 12 123 1230 123000 123000000 PM pm")
        let midnight = DataviewDate(year: 2025, month: 1, day: 5, hasTime: true)
        #expect(format(midnight, "H HH h hh k kk m mm s ss A a") == "0 00 12 12 24 24 0 00 0 00 AM am")
        let noon = DataviewDate(year: 2025, month: 1, day: 4, hour: 12, millisecond: 7, hasTime: true)
        #expect(format(noon, "h A SSS SS S") == "12 PM 007 00 0")
    }

    @Test("offsets and Unix times come from the floating zone, or from the date's own offset")
    func offsetsAndUnixTimes() {
        #expect(format(Self.sunday, "Z ZZ X x") == "+01:00 +0100 1736082309 1736082309123")
        let summer = DataviewDate(year: 2025, month: 7, day: 15, hour: 18, minute: 45, second: 30, millisecond: 500, hasTime: true)
        #expect(format(summer, "Z ZZ X x") == "+02:00 +0200 1752597930 1752597930500")
        #expect(MomentFormat.format(summer, "Z X", floatingTimeZone: Self.utc) == "+00:00 1752605130")
        var tokyo = summer
        tokyo.offsetMinutes = 540
        #expect(format(tokyo, "HH:mm Z ZZ X") == "18:45 +09:00 +0900 1752572730", "the date's own fields and offset win")
        #expect(format(Self.sunday, "[z]z zz") == "z ", "z is empty for a local moment")
    }

    @Test("brackets and backslashes escape, other letters pass through, line breaks vanish")
    func escapesAndLiterals() {
        #expect(format(Self.sunday, "[YYYY] [a[b] \\YYYY \\[x] a\\") == "YYYY [pmb YYYY [1736082309123] pm")
        #expect(format(Self.sunday, "dddd, MMMM Do YYYY [at] h:mm a") == "Sunday, January 5th 2025 at 2:05 pm")
        #expect(format(Self.sunday, "x-ó-😀-Ç-b-c-f-g-i-j-n-o-p-q-r-t-u-v-B-C-F-G-I-J-K-O-P-R-T-U-V")
                == "1736082309123-ó-😀-Ç-b-c-f-g-i-j-n-o-p-q-r-t-u-v-B-C-F-G-I-J-K-O-P-R-T-U-V")
        #expect(format(Self.sunday, "YYYY\nMM") == "202501")
        #expect(format(Self.sunday, "GGGG-[W]WW-E gggg-[W]ww-e") == "2025-W01-7 2025-W02-0")
    }

    @Test("localized formats L, LL, LLL, LLLL, l … LT and LTS in English")
    func localizedFormats() {
        #expect(format(Self.sunday, "L LL LLL LLLL") == "01/05/2025 January 5, 2025 January 5, 2025 2:05 PM Sunday, January 5, 2025 2:05 PM")
        #expect(format(Self.sunday, "l ll lll llll LT LTS [L]") == "1/5/2025 Jan 5, 2025 Jan 5, 2025 2:05 PM Sun, Jan 5, 2025 2:05 PM 2:05 PM 2:05:09 PM L")
    }

    @Test("eras and era years")
    func eras() {
        #expect(format(Self.sunday, "N NNNN y yy yo") == "AD Anno Domini 2025 2025 2025th")
        let early = DataviewDate(year: 99, month: 3, day: 1)
        #expect(format(early, "Y YY YYYY") == "0099 99 0099")
    }

    @Test("a Date is formatted with the wall-clock time it has in the given zone")
    func dateInAZone() {
        let instant = Date(timeIntervalSince1970: 1_736_082_309.123)
        #expect(MomentFormat.format(instant, "YYYY-MM-DD HH:mm:ss.SSS Z", timeZone: Self.berlin) == "2025-01-05 14:05:09.123 +01:00")
        #expect(MomentFormat.format(instant, "YYYY-MM-DD HH:mm:ss.SSS Z", timeZone: Self.utc) == "2025-01-05 13:05:09.123 +00:00")
    }

    @Test("wall-clock times the clocks skip or repeat resolve as JavaScript's Date does")
    func skippedAndRepeatedTimes() {
        let skipped = DataviewDate(year: 2025, month: 3, day: 30, hour: 2, minute: 30, hasTime: true)
        #expect(format(skipped, "x") == "1743298200000", "02:30 does not exist: taken with the winter offset, 01:30 UTC")
        let repeated = DataviewDate(year: 2025, month: 10, day: 26, hour: 2, minute: 30, hasTime: true)
        #expect(format(repeated, "x Z") == "1761438600000 +02:00", "02:30 happens twice: the first, in summer time")
    }
}

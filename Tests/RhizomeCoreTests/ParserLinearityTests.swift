/// Every parser path costs time linear in its input. Each scenario parses an input of size n and of size
/// 4n and compares the times: linear work takes about 4 times as long, quadratic work 16 times (one
/// frontmatter value with 100k `[[a]]` took 6.9 s to index when each link's column was counted from the
/// line's start). n is chosen so that parsing takes at least 20 ms, and the ratio is asserted below 8 on
/// the fastest of three runs of each size, measured again when over (other tests may be running), so
/// that a loaded machine does not fail it; a quadratic path would also make the test take seconds.
import Foundation
import Testing
@testable import RhizomeCore

@Suite(.serialized) struct ParserLinearityTests {
    /// One input per scenario, made at any size.
    struct Scenario: CustomTestStringConvertible, Sendable {
        var name: String
        var make: @Sendable (Int) -> [UInt8]
        var parse: @Sendable ([UInt8]) -> Int
        var testDescription: String { name }
    }

    static func note(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func parseNote(_ bytes: [UInt8]) -> Int {
        let note = NoteParser.parse(bytes, path: "Note.md")
        return note.links.count + note.tags.count
    }

    static func parseCanvas(_ bytes: [UInt8]) -> Int {
        let note = CanvasParser.parse(bytes, path: "Board.canvas")
        return note.links.count + note.tags.count
    }

    static func canvas(_ nodes: [[String: Any]]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: ["nodes": nodes], options: [.prettyPrinted])) ?? Data())
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "links in one property value", make: { n in
            note("---\nrelated: \"" + String(repeating: "[[a]] ", count: n) + "\"\n---\nbody\n")
        }, parse: parseNote),
        Scenario(name: "quoted links in a flow list on one line", make: { n in
            note("---\nrelated: [" + Array(repeating: "\"[[a]]\"", count: n).joined(separator: ", ") + "]\n---\n")
        }, parse: parseNote),
        Scenario(name: "tags in a property list", make: { n in
            note("---\ntags: [" + (0..<n).map { "t\($0)" }.joined(separator: ", ") + "]\n---\n")
        }, parse: parseNote),
        Scenario(name: "links and tags on one body line", make: { n in
            note(String(repeating: "[[a]] #t [b](c.md) ", count: n) + "\n")
        }, parse: parseNote),
        Scenario(name: "unclosed links on one body line", make: { n in
            note(String(repeating: "[[a [x]( ![[ ", count: n) + " [[end]]\n")
        }, parse: parseNote),
        Scenario(name: "a very long wikilink in a property", make: { n in
            note("---\nrelated: \"[[" + String(repeating: "long name ", count: n) + "]]\"\n---\n")
        }, parse: parseNote),
        Scenario(name: "a very long wikilink in the body", make: { n in
            note("[[" + String(repeating: "long name ", count: n) + "#heading|shown]]\n")
        }, parse: parseNote),
        Scenario(name: "links in one canvas text node", make: { n in
            canvas([["id": "node", "type": "text", "text": String(repeating: "[[a]] #t ", count: n), "x": 0, "y": 0, "width": 1, "height": 1]])
        }, parse: parseCanvas),
        Scenario(name: "many canvas nodes", make: { n in
            canvas((0..<(n / 4)).map { ["id": "node\($0)", "type": $0 % 2 == 0 ? "text" : "file", "text": "[[a]]", "file": "b.md", "x": 0, "y": 0, "width": 1, "height": 1] })
        }, parse: parseCanvas),
        Scenario(name: "locating every link of one property value and one body line (to rewrite them)", make: { n in
            note("---\nrelated: \"" + String(repeating: "[[a]] ", count: n) + "\"\n---\n" + String(repeating: "[[a]] [b](b.md) ", count: n) + "\n")
        }, parse: { bytes in
            LinkLocator.locate(NoteParser.parse(bytes, path: "Note.md").links, in: bytes, isCanvas: false).count
        }),
    ]

    @Test(arguments: scenarios)
    func `parsing time grows linearly with the input`(_ scenario: Scenario) {
        // A size whose parse takes long enough to time (at least 20 ms), then four times that size.
        var n = 250
        var small = scenario.make(n)
        _ = scenario.parse(small)  // warm up
        while Self.fastest(of: 3, { _ = scenario.parse(small) }) < .milliseconds(20), n < 64_000 {
            n *= 2
            small = scenario.make(n)
        }
        let large = scenario.make(4 * n)
        // Other tests running beside this one can slow either size down: a ratio over the limit is measured
        // again (twice at most). Quadratic work is over it every time (about 16), linear work never twice.
        var ratios: [Double] = []
        for _ in 0..<3 {
            let smallTime = Self.fastest(of: 3) { _ = scenario.parse(small) }
            let largeTime = Self.fastest(of: 3) { _ = scenario.parse(large) }
            ratios.append(largeTime.inSeconds / smallTime.inSeconds)
            if ratios.last! < 8 { break }
        }
        #expect(ratios.last! < 8, "\(scenario.name): 4× the input (n = \(n)) took \(ratios.map { String(format: "%.1f", $0) }.joined(separator: ", "))× as long")
        #expect(scenario.parse(large) > 0)
    }

    static func fastest(of runs: Int, _ body: () -> Void) -> Duration {
        let clock = ContinuousClock()
        var best = Duration.seconds(3_600)
        for _ in 0..<runs { best = min(best, clock.measure(body)) }
        return best
    }
}

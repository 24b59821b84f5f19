import Foundation
import RhizomeCore
import RhizomeStore

/// `--property-links N`: one note whose one frontmatter property holds N wikilinks (`related: "[[a]] [[a]] …"`),
/// indexed from scratch (a fresh database each round), beside the same N links on one body line and
/// in one canvas text node. Every parser path must be linear: 100k links in one property took 6.9 s
/// when each link's column was counted again from the start of its line, against 0.2 s in the body.
/// `--repeat R` rounds (default 3); prints the median and the range.
struct PropertyLinksBenchmark {
    let linkCount: Int
    let workRoot: String
    var rounds = 3

    func run() throws {
        let links = String(repeating: "[[a]] ", count: linkCount)
        let scenarios: [(name: String, file: String, text: String)] = [
            ("\(linkCount) links in one property value", "Note.md", "---\nrelated: \"\(links)\"\n---\nbody\n"),
            ("\(linkCount) links on one body line", "Note.md", links + "\n"),
            ("\(linkCount) links in one canvas text node", "Board.canvas",
             String(decoding: try JSONSerialization.data(withJSONObject: ["nodes": [["id": "n", "type": "text", "text": links, "x": 0, "y": 0, "width": 1, "height": 1]]]), as: UTF8.self)),
        ]
        print("\n== One file with many links, indexed from scratch (release, in-process) ==")
        for scenario in scenarios {
            let folder = URL(fileURLWithPath: workRoot).appendingPathComponent("property-links")
            let vault = folder.appendingPathComponent("vault")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
            try Data(scenario.text.utf8).write(to: vault.appendingPathComponent(scenario.file))
            try Data("# a\n".utf8).write(to: vault.appendingPathComponent("a.md"))
            var times: [Double] = []
            for round in 0..<rounds {
                let database = folder.appendingPathComponent("index-\(round).sqlite").path
                let clock = ContinuousClock()
                let start = clock.now
                let report = try Indexer(store: try IndexStore(path: database), vaultRoot: vault.path).run()
                times.append((clock.now - start).inMilliseconds)
                precondition(report.links == linkCount, "\(scenario.name): \(report.links) links indexed")
            }
            print("  " + scenario.name.padding(toLength: 42, withPad: " ", startingAt: 0)
                + String(format: " median %7.0f ms  (min %.0f, max %.0f)", Measurements.median(times), times.min() ?? 0, times.max() ?? 0))
            try? FileManager.default.removeItem(at: folder)
        }
    }
}

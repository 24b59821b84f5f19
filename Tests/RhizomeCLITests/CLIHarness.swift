import Foundation
import Testing
import RhizomeCLI
import RhizomeTestSupport

/// Runs the CLI in-process with a controlled environment (temp HOME and cache, no real vault leaks in).
struct CLIHarness {
    var home: URL
    var environment: [String: String]

    init() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("rhizome-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path]
    }

    struct Result {
        var status: Int32
        var output: String
        var error: String

        /// The decoded `--json` envelope.
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(output.utf8))) as? [String: Any] ?? [:]
        }
    }

    func run(_ arguments: [String], environment extra: [String: String] = [:], in directory: String? = nil) -> Result {
        let output = OutputSink.capturing()
        let error = OutputSink.capturing()
        let context = CommandContext(
            environment: environment.merging(extra) { $1 }, currentDirectory: directory ?? home.path,
            standardOutput: output, standardError: error, isTerminal: false)
        let status = CLI.run(arguments, context: context)
        return Result(status: status, output: output.text, error: error.text)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: home)
    }
}

/// The built `rhizome` executable, for tests that need a real process.
enum RhizomeBinary {
    static var url: URL? {
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("rhizome") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}

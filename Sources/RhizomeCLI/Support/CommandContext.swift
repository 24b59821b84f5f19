import Foundation
import RhizomeCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything a command needs from the outside world, injectable so tests run the CLI in-process.
public struct CommandContext: Sendable {
    public var environment: [String: String]
    public var currentDirectory: String
    public var standardOutput: OutputSink
    public var standardError: OutputSink
    /// Whether standard error is a terminal (progress lines are shown only then).
    public var isTerminal: Bool
    /// Reads one line of the user's answer (confirmations); nil at end of input. Tests supply answers.
    public var readAnswer: @Sendable () -> String?

    public init(
        environment: [String: String], currentDirectory: String, standardOutput: OutputSink, standardError: OutputSink, isTerminal: Bool,
        readAnswer: @escaping @Sendable () -> String? = { Swift.readLine() }
    ) {
        self.readAnswer = readAnswer
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.isTerminal = isTerminal
    }

    /// The real process environment and streams.
    public static func live() -> CommandContext {
        CommandContext(
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath,
            standardOutput: .standardOutput, standardError: .standardError,
            isTerminal: isatty(2) == 1)
    }

    func print(_ text: String = "") { standardOutput.write(text + "\n") }

    /// Whether standard output is the process's own and a terminal (`NO_COLOR` unset): where text may carry
    /// terminal styles. Never for a capturing sink (tests) or a pipe.
    var stylesOutput: Bool {
        standardOutput === OutputSink.standardOutput && isatty(1) == 1 && (environment["NO_COLOR"] ?? "").isEmpty
    }
    func printError(_ text: String) { standardError.write(text + "\n") }
}

/// A destination for text: a file descriptor, or a buffer (tests).
public final class OutputSink: Sendable {
    private let descriptor: Int32?
    /// What a capturing sink holds; for a descriptor, the lock that keeps writes whole.
    private let buffer = Locked("")

    private init(descriptor: Int32?) { self.descriptor = descriptor }

    public static let standardOutput = OutputSink(descriptor: 1)
    public static let standardError = OutputSink(descriptor: 2)
    public static func capturing() -> OutputSink { OutputSink(descriptor: nil) }

    public func write(_ text: String) {
        buffer.withLock { buffer in
            if let descriptor {
                var bytes = Array(text.utf8)[...]
                while !bytes.isEmpty {
                    let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
                    if written < 0 { if errno == EINTR { continue } else { return } }
                    bytes = bytes.dropFirst(written)
                }
            } else {
                buffer += text
            }
        }
    }

    /// What was written to a capturing sink.
    public var text: String {
        buffer.withLock { $0 }
    }
}

/// `write(2)`, named apart from `OutputSink.write(_:)`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

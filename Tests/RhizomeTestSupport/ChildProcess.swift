import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A long-running child process (the real `rhizome watch` or `rhizome mcp`) whose standard output and
/// error are collected line by line on background threads.
///
/// Every wait takes a deadline, so a child that hangs or dies fails the test instead of hanging CI.
/// `stop()` (also run on deinit) kills the child if it is still running.
public final class ChildProcess: @unchecked Sendable {
    /// How a child ended.
    public enum Termination: Equatable, Sendable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let number): "killed by signal \(number)"
            }
        }
    }

    public let process = Process()
    private let input = Pipe()
    private let output: LineCollector
    private let errors: LineCollector

    public var processIdentifier: Int32 { process.processIdentifier }

    public init(executable: URL, arguments: [String], environment: [String: String]) throws {
        // Writing to the input of a child that died must fail the write, not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        let outputPipe = Pipe()
        let errorPipe = Pipe()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        // Closed on exec: another test's process started meanwhile must not keep this child's input open
        // (it would never see its end) nor its output (`ClaudeCodeCLI` does the same).
        for pipe in [input, outputPipe, errorPipe] {
            for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] { _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC) }
        }
        process.standardInput = input
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        output = LineCollector(outputPipe.fileHandleForReading)
        errors = LineCollector(errorPipe.fileHandleForReading)
        try process.run()
        output.startReading()
        errors.startReading()
    }

    deinit {
        stop()
    }

    // MARK: Output

    /// The complete lines of standard output so far.
    public var outputLines: [String] { output.lines }
    /// Standard error so far.
    public var errorText: String { errors.lines.joined(separator: "\n") }
    /// Whether standard output reached its end (the child closed it or exited).
    public var outputEnded: Bool { output.isEnded }

    /// Waits until `predicate` holds for the output lines, the output ends, or the deadline passes;
    /// returns the lines at that moment.
    @discardableResult
    public func waitForOutput(within timeout: Duration, until predicate: ([String]) -> Bool) -> [String] {
        output.wait(within: timeout, until: predicate)
    }

    /// The first output line at or after `index` that matches, waiting for it until the deadline.
    public func outputLine(from index: Int = 0, within timeout: Duration, where matches: (String) -> Bool) -> String? {
        let lines = output.wait(within: timeout) { lines in lines.dropFirst(index).contains(where: matches) }
        return lines.dropFirst(index).first(where: matches)
    }

    /// Waits until standard error holds `text` (or the deadline passes); returns whether it does.
    public func waitForError(containing text: String, within timeout: Duration) -> Bool {
        errors.wait(within: timeout) { $0.joined(separator: "\n").contains(text) }.joined(separator: "\n").contains(text)
    }

    // MARK: Input, signals, exit

    /// Writes one line (a newline is added) to the child's standard input.
    public func writeLine(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((text + "\n").utf8))
    }

    public func closeInput() {
        try? input.fileHandleForWriting.close()
    }

    public func send(signal number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the child to end; nil when it is still running at the deadline. Once it ended, its
    /// output is read to the end too (briefly), so `outputLines` is complete.
    public func waitForExit(within timeout: Duration) -> Termination? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning {
            if clock.now >= deadline { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
        _ = output.wait(within: .seconds(2)) { _ in false }
        _ = errors.wait(within: .seconds(2)) { _ in false }
        return process.terminationReason == .exit ? .exited(process.terminationStatus) : .signalled(process.terminationStatus)
    }

    /// Kills the child if it is still running (the clean-up for `defer`).
    public func stop() {
        closeInput()
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        _ = waitForExit(within: .seconds(5))
    }
}

/// Lines read from a pipe on a background thread, with waits that end at a deadline.
final class LineCollector: @unchecked Sendable {
    private let handle: FileHandle
    private let condition = NSCondition()
    private var pending: [UInt8] = []
    private var collected: [String] = []
    private var ended = false

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    func startReading() {
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                append(data)
            }
            finish()
        }
    }

    var lines: [String] {
        condition.lock()
        defer { condition.unlock() }
        return collected
    }

    var isEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    func wait(within timeout: Duration, until predicate: ([String]) -> Bool) -> [String] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        condition.lock()
        defer { condition.unlock() }
        while !predicate(collected) && !ended {
            let remaining = deadline - clock.now
            if remaining <= .zero { break }
            let seconds = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) / 1e18
            _ = condition.wait(until: Date(timeIntervalSinceNow: seconds))
        }
        return collected
    }

    private func append(_ data: Data) {
        condition.lock()
        defer { condition.unlock() }
        pending += data
        while let newline = pending.firstIndex(of: 0x0A) {
            collected.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        condition.broadcast()
    }

    private func finish() {
        condition.lock()
        defer { condition.unlock() }
        if !pending.isEmpty {
            collected.append(String(decoding: pending, as: UTF8.self))
            pending = []
        }
        ended = true
        condition.broadcast()
    }
}

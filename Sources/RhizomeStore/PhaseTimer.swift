// PhaseTimer: wall and CPU time per named phase of a run, for `RHIZOME_TRACE_PHASES=1`.
import Foundation

/// Accumulates wall time per phase, and the CPU time of the thread that marks them (the writer's: what it
/// did not spend waiting); printed to standard error when `IndexOptions.tracePhases` is set
/// (`RHIZOME_TRACE_PHASES=1`). The indexer and the operation journal use it.
public struct PhaseTimer {
    public let enabled: Bool
    private let label: String
    private let clock = ContinuousClock()
    private var last: ContinuousClock.Instant
    private var lastCPU: Duration
    private var totals: [(phase: String, wall: Duration, cpu: Duration)] = []

    /// Whether `RHIZOME_TRACE_PHASES=1` asks for phase times.
    public static var requested: Bool { ProcessInfo.processInfo.environment["RHIZOME_TRACE_PHASES"] == "1" }

    /// `label` begins the printed line ("phases" for the indexer); `enabled` defaults to `requested`.
    public init(enabled: Bool = PhaseTimer.requested, label: String = "phases") {
        self.enabled = enabled
        self.label = label
        last = clock.now
        lastCPU = enabled ? Self.threadCPUTime() : .zero
    }

    public mutating func mark(_ phase: String) {
        guard enabled else { return }
        let (now, cpu) = (clock.now, Self.threadCPUTime())
        if let index = totals.firstIndex(where: { $0.phase == phase }) {
            totals[index].wall += now - last
            totals[index].cpu += cpu - lastCPU
        } else {
            totals.append((phase, now - last, cpu - lastCPU))
        }
        (last, lastCPU) = (now, cpu)
    }

    public func finish() {
        guard enabled, !totals.isEmpty else { return }
        let text = totals.map { "\($0.phase): \(Int($0.wall.inMilliseconds)) ms (CPU \(Int($0.cpu.inMilliseconds)))" }.joined(separator: " · ")
        FileHandle.standardError.write(Data((label + ": " + text + "\n").utf8))
    }

    private static func threadCPUTime() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
    }
}

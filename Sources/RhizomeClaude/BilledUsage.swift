import Foundation

/// What a call may have been billed for so far, kept while it runs so that a call that fails, is
/// interrupted or is cancelled still reaches the usage ledger (and the budget) with what is known.
///
/// An API attempt counts once its `message_start` arrived (the input was processed); its usage is
/// cumulative within the attempt, and attempts add up. The Claude Code CLI reports its own total cost.
public final class BilledUsage: @unchecked Sendable {
    private let lock = NSLock()
    private var finished = MessagesAPI.Usage()
    private var current: MessagesAPI.Usage?
    private var latestModel = ""
    private var reportedCost: Double?

    public init() {}

    /// An API attempt began answering (`message_start`) with this model and usage.
    func beginAttempt(model: String, usage: MessagesAPI.Usage) {
        lock.withLock {
            if let current { finished = Self.sum(finished, current) }
            current = usage
            if !model.isEmpty { latestModel = model }
        }
    }

    /// More usage of the current attempt (`message_delta`: its counts so far replace the earlier ones).
    func update(_ usage: MessagesAPI.Usage) {
        lock.withLock {
            guard var merged = current else { return }
            merged.merge(usage)
            current = merged
        }
    }

    /// What the Claude Code CLI said the call cost, and its usage.
    func report(model: String, usage: MessagesAPI.Usage, costUSD: Double?) {
        lock.withLock {
            current = usage
            if !model.isEmpty { latestModel = model }
            reportedCost = costUSD
        }
    }

    /// Whether anything may have been billed.
    public var isBilled: Bool { lock.withLock { current != nil || reportedCost != nil } }
    public var model: String { lock.withLock { latestModel } }
    public var usage: MessagesAPI.Usage { lock.withLock { current.map { Self.sum(finished, $0) } ?? finished } }
    public var reportedCostUSD: Double? { lock.withLock { reportedCost } }

    private static func sum(_ a: MessagesAPI.Usage, _ b: MessagesAPI.Usage) -> MessagesAPI.Usage {
        func add(_ x: Int?, _ y: Int?) -> Int? { x == nil && y == nil ? nil : (x ?? 0) + (y ?? 0) }
        return MessagesAPI.Usage(
            inputTokens: add(a.inputTokens, b.inputTokens), outputTokens: add(a.outputTokens, b.outputTokens),
            cacheCreationInputTokens: add(a.cacheCreationInputTokens, b.cacheCreationInputTokens),
            cacheReadInputTokens: add(a.cacheReadInputTokens, b.cacheReadInputTokens))
    }
}

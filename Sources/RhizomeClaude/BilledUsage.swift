import Foundation
import RhizomeCore

/// What a call may have been billed for so far, kept while it runs so that a call that fails, is
/// interrupted or is cancelled still reaches the usage ledger (and the budget) with what is known.
///
/// An API attempt counts once its `message_start` arrived (the input was processed); its usage is
/// cumulative within the attempt, and attempts add up. The Claude Code CLI reports its own total cost.
public final class BilledUsage: Sendable {
    private struct State {
        /// The attempts that ended, added up.
        var finished = MessagesAPI.Usage()
        var current: MessagesAPI.Usage?
        var latestModel = ""
        var reportedCost: Double?
    }

    private let state = Locked(State())

    public init() {}

    /// An API attempt began answering (`message_start`) with this model and usage.
    func beginAttempt(model: String, usage: MessagesAPI.Usage) {
        state.withLock { state in
            if let current = state.current { state.finished = Self.sum(state.finished, current) }
            state.current = usage
            if !model.isEmpty { state.latestModel = model }
        }
    }

    /// More usage of the current attempt (`message_delta`: its counts so far replace the earlier ones).
    func update(_ usage: MessagesAPI.Usage) {
        state.withLock { state in
            guard var merged = state.current else { return }
            merged.merge(usage)
            state.current = merged
        }
    }

    /// What the Claude Code CLI said the call cost, and its usage.
    func report(model: String, usage: MessagesAPI.Usage, costUSD: Double?) {
        state.withLock { state in
            state.current = usage
            if !model.isEmpty { state.latestModel = model }
            state.reportedCost = costUSD
        }
    }

    /// Whether anything may have been billed.
    public var isBilled: Bool { state.withLock { $0.current != nil || $0.reportedCost != nil } }
    public var model: String { state.withLock { $0.latestModel } }
    public var usage: MessagesAPI.Usage { state.withLock { state in state.current.map { Self.sum(state.finished, $0) } ?? state.finished } }
    public var reportedCostUSD: Double? { state.withLock { $0.reportedCost } }

    private static func sum(_ a: MessagesAPI.Usage, _ b: MessagesAPI.Usage) -> MessagesAPI.Usage {
        func add(_ x: Int?, _ y: Int?) -> Int? { x == nil && y == nil ? nil : (x ?? 0) + (y ?? 0) }
        return MessagesAPI.Usage(
            inputTokens: add(a.inputTokens, b.inputTokens), outputTokens: add(a.outputTokens, b.outputTokens),
            cacheCreationInputTokens: add(a.cacheCreationInputTokens, b.cacheCreationInputTokens),
            cacheReadInputTokens: add(a.cacheReadInputTokens, b.cacheReadInputTokens))
    }
}

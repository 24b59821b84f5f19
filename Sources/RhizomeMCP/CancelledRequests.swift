import Foundation
import RhizomeCore
import MCP

/// The request ids the client cancelled (`notifications/cancelled`), seen by the transport as the lines
/// arrive, so that no response goes out for them. The SDK stops a cancelled call's task when it already
/// knows the request, and the call's deadline ends its SQL; but a cancellation can overtake its request
/// (each request starts on a task of its own), or arrive as the answer is being sent. Kept a minute.
final class CancelledRequests: Sendable {
    private let cancelledAt = Locked<[ID: ContinuousClock.Instant]>([:])
    private static let lifetime: Duration = .seconds(60)

    /// Reads a `notifications/cancelled` line and remembers its `requestId`.
    func record(line: Data) {
        guard line.count < 4_096, String(decoding: line, as: UTF8.self).contains("notifications/cancelled"),
              let message = try? JSONDecoder().decode(Cancellation.self, from: line),
              message.method == CancelledNotification.name, let id = message.params?.requestId
        else { return }
        cancelledAt.withLock { cancelledAt in
            Self.forgetExpired(&cancelledAt)
            if cancelledAt.count < 10_000 { cancelledAt[id] = ContinuousClock.now }
        }
    }

    /// Whether any cancellation is remembered (until then, responses go out without being read).
    var isEmpty: Bool {
        cancelledAt.withLock { cancelledAt in
            Self.forgetExpired(&cancelledAt)
            return cancelledAt.isEmpty
        }
    }

    /// Whether `message` (about to be sent) answers a cancelled request; such a response is dropped.
    func isResponseToCancelled(_ message: Data) -> Bool {
        guard !isEmpty, let envelope = try? JSONDecoder().decode(Envelope.self, from: message),
              envelope.method == nil, let id = envelope.id
        else { return false }
        return cancelledAt.withLock { $0.removeValue(forKey: id) != nil }
    }

    private static func forgetExpired(_ cancelledAt: inout [ID: ContinuousClock.Instant]) {
        let now = ContinuousClock.now
        if cancelledAt.values.contains(where: { now - $0 >= Self.lifetime }) {
            cancelledAt = cancelledAt.filter { now - $0.value < Self.lifetime }
        }
    }

    private struct Cancellation: Decodable {
        struct Parameters: Decodable { var requestId: ID? }
        var method: String
        var params: Parameters?
    }

    private struct Envelope: Decodable {
        var id: ID?
        var method: String?
    }
}

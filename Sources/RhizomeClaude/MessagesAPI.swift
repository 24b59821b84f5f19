/// The Anthropic Messages API's request and response types, named as the API names them
/// (https://docs.anthropic.com/en/api/messages): `max_tokens` is `maxTokens` with a coding key, and so on.
public enum MessagesAPI {
    public static let version = "2023-06-01"

    public struct Request: Encodable, Sendable {
        public var model: String
        public var maxTokens: Int
        public var messages: [Message]
        public var system: String?
        public var temperature: Double?
        public var stream: Bool?

        public init(model: String, maxTokens: Int, messages: [Message], system: String? = nil, temperature: Double? = nil, stream: Bool? = nil) {
            self.model = model
            self.maxTokens = maxTokens
            self.messages = messages
            self.system = system
            self.temperature = temperature
            self.stream = stream
        }

        enum CodingKeys: String, CodingKey {
            case model, messages, system, temperature, stream
            case maxTokens = "max_tokens"
        }
    }

    public struct Message: Codable, Sendable, Equatable {
        public var role: Role
        public var content: String

        public init(role: Role, content: String) {
            self.role = role
            self.content = content
        }
    }

    public enum Role: String, Codable, Sendable {
        case user, assistant
    }

    /// A non-streamed response, and the `message` of `message_start`.
    public struct Response: Decodable, Sendable {
        public var id: String
        public var type: String
        public var role: Role
        public var model: String
        public var content: [ContentBlock]
        public var stopReason: String?
        public var usage: Usage

        enum CodingKeys: String, CodingKey {
            case id, type, role, model, content, usage
            case stopReason = "stop_reason"
        }

        /// Leniently: a `message_start` (or a proxy's answer) without `id`, `role`, `content` or `usage`
        /// still starts an answer; only what is present and of the wrong type is an error.
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
            type = try container.decodeIfPresent(String.self, forKey: .type) ?? ""
            role = (try? container.decodeIfPresent(Role.self, forKey: .role)) ?? .assistant
            model = try container.decodeIfPresent(String.self, forKey: .model) ?? ""
            content = try container.decodeIfPresent([ContentBlock].self, forKey: .content) ?? []
            stopReason = try container.decodeIfPresent(String.self, forKey: .stopReason)
            usage = try container.decodeIfPresent(Usage.self, forKey: .usage) ?? Usage()
        }

        /// The text of its text blocks.
        public var text: String {
            content.map { if case .text(let text) = $0 { text } else { "" } }.joined()
        }
    }

    /// A content block: text is all Rhizome asks for; other kinds are kept by name.
    public enum ContentBlock: Decodable, Sendable, Equatable {
        case text(String)
        case other(type: String)

        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let type = try container.decode(String.self, forKey: .type)
            if type == "text" {
                self = .text(try container.decodeIfPresent(String.self, forKey: .text) ?? "")
            } else {
                self = .other(type: type)
            }
        }

        enum CodingKeys: String, CodingKey { case type, text }
    }

    /// Token counts. In `message_start` the input side; in `message_delta` the output so far.
    public struct Usage: Codable, Sendable, Equatable {
        public var inputTokens: Int?
        public var outputTokens: Int?
        public var cacheCreationInputTokens: Int?
        public var cacheReadInputTokens: Int?

        public init(inputTokens: Int? = nil, outputTokens: Int? = nil, cacheCreationInputTokens: Int? = nil, cacheReadInputTokens: Int? = nil) {
            self.inputTokens = inputTokens
            self.outputTokens = outputTokens
            self.cacheCreationInputTokens = cacheCreationInputTokens
            self.cacheReadInputTokens = cacheReadInputTokens
        }

        enum CodingKeys: String, CodingKey {
            case inputTokens = "input_tokens"
            case outputTokens = "output_tokens"
            case cacheCreationInputTokens = "cache_creation_input_tokens"
            case cacheReadInputTokens = "cache_read_input_tokens"
        }

        /// Later counts replace earlier ones field by field (`message_delta` carries cumulative counts).
        mutating func merge(_ other: Usage) {
            inputTokens = other.inputTokens ?? inputTokens
            outputTokens = other.outputTokens ?? outputTokens
            cacheCreationInputTokens = other.cacheCreationInputTokens ?? cacheCreationInputTokens
            cacheReadInputTokens = other.cacheReadInputTokens ?? cacheReadInputTokens
        }
    }

    /// `{"type": "error", "error": {"type": "overloaded_error", "message": "…"}}`: an HTTP error body, and
    /// the `error` stream event.
    public struct ErrorBody: Decodable, Sendable {
        public struct Detail: Decodable, Sendable {
            public var type: String
            public var message: String
        }
        public var error: Detail
    }

    /// One event of a streamed response. Unknown event types are kept by name and skipped: the API adds
    /// new ones.
    public enum StreamEvent: Sendable {
        case messageStart(Response)
        case contentBlockStart(index: Int)
        case contentBlockDelta(index: Int, Delta)
        case contentBlockStop(index: Int)
        case messageDelta(stopReason: String?, usage: Usage?)
        case messageStop
        case ping
        case error(type: String, message: String)
        case unknown(type: String)
    }

    /// A content block's increment. Unknown delta types are kept by name and skipped.
    public enum Delta: Sendable, Equatable {
        case text(String)
        case inputJSON(String)
        case unknown(type: String)
    }
}

extension MessagesAPI.StreamEvent {
    /// Decodes one SSE event's `data` (its `type` field decides, as the API documents).
    static func decode(_ data: String) throws -> MessagesAPI.StreamEvent {
        let decoder = JSONDecoder()
        let bytes = Data(data.utf8)
        let envelope = try decoder.decode(Envelope.self, from: bytes)
        switch envelope.type {
        case "message_start":
            return .messageStart(try decoder.decode(MessageStart.self, from: bytes).message)
        case "content_block_start":
            return .contentBlockStart(index: envelope.index ?? 0)
        case "content_block_delta":
            let delta = try decoder.decode(DeltaEvent.self, from: bytes).delta
            switch delta.type {
            case "text_delta": return .contentBlockDelta(index: envelope.index ?? 0, .text(delta.text ?? ""))
            case "input_json_delta": return .contentBlockDelta(index: envelope.index ?? 0, .inputJSON(delta.partialJSON ?? ""))
            default: return .contentBlockDelta(index: envelope.index ?? 0, .unknown(type: delta.type))
            }
        case "content_block_stop":
            return .contentBlockStop(index: envelope.index ?? 0)
        case "message_delta":
            let event = try decoder.decode(MessageDeltaEvent.self, from: bytes)
            return .messageDelta(stopReason: event.delta?.stopReason, usage: event.usage)
        case "message_stop":
            return .messageStop
        case "ping":
            return .ping
        case "error":
            let body = try decoder.decode(MessagesAPI.ErrorBody.self, from: bytes)
            return .error(type: body.error.type, message: body.error.message)
        default:
            return .unknown(type: envelope.type)
        }
    }

    private struct Envelope: Decodable {
        var type: String
        var index: Int?
    }

    private struct MessageStart: Decodable {
        var message: MessagesAPI.Response
    }

    private struct DeltaEvent: Decodable {
        struct Body: Decodable {
            var type: String
            var text: String?
            var partialJSON: String?
            enum CodingKeys: String, CodingKey {
                case type, text
                case partialJSON = "partial_json"
            }
        }
        var delta: Body
    }

    private struct MessageDeltaEvent: Decodable {
        struct Body: Decodable {
            var stopReason: String?
            enum CodingKeys: String, CodingKey { case stopReason = "stop_reason" }
        }
        var delta: Body?
        var usage: MessagesAPI.Usage?
    }
}

import Foundation

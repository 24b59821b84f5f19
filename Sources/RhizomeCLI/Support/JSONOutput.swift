import Foundation
import RhizomeCore

/// The versioned `--json` envelope: `{"command", "data" | "error", "vault", "version"}` with sorted keys.
/// Bump `version` only for incompatible changes; fields are only ever added.
enum JSONOutput {
    static let version = 1

    struct Envelope<Payload: Encodable>: Encodable {
        var version = JSONOutput.version
        var command: String
        var vault: String?
        var data: Payload
        /// For a list cut by `--limit`: how many there are in all, and whether `data` holds fewer (absent for
        /// commands that do not count).
        var total: Int? = nil
        var truncated: Bool? = nil
        /// Said beside the data when the answer is not quite what was asked (a search that fell back to any word).
        var note: String? = nil
    }

    struct ErrorEnvelope: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            /// How to fix it, when the error says so apart from its message.
            @NullEncoded var fix: String?

            enum CodingKeys: String, CodingKey { case code, message, fix }
        }
        var version = JSONOutput.version
        var command: String
        var error: Detail
    }

    static func encode<T: Encodable>(_ value: T, pretty: Bool = true) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            return "{\"error\":{\"code\":\"encoding-failed\",\"message\":\"\(error)\"},\"version\":\(version)}"
        }
    }
}

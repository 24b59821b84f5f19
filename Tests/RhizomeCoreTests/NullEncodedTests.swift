/// `@NullEncoded`: the compiler's `encode(to:)` with every key present, `null` when absent, and decoding
/// that takes `null` and a missing key alike.
import Foundation
import Testing
import RhizomeCore

@Suite struct NullEncodedTests {
    struct Row: Codable, Equatable {
        var name: String
        @NullEncoded var note: String?
        @NullEncoded var count: Int?
    }

    func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test func `an absent value keeps its key, as null`() throws {
        #expect(try json(Row(name: "a", note: nil, count: nil)) == #"{"count":null,"name":"a","note":null}"#)
        #expect(try json(Row(name: "a", note: "n", count: 3)) == #"{"count":3,"name":"a","note":"n"}"#)
    }

    @Test func `null and a missing key both decode as no value`() throws {
        let decoded = try JSONDecoder().decode([Row].self, from: Data(#"[{"name":"a","note":null},{"name":"b","count":2}]"#.utf8))
        #expect(decoded == [Row(name: "a", note: nil, count: nil), Row(name: "b", note: nil, count: 2)])
    }

    @Test func `a finding without a place or a fix still has every key`() throws {
        let finding = Finding(code: .invalidYAML, severity: .error, message: "m")
        #expect(try json(finding) == #"{"code":"invalid-yaml","column":null,"fix":null,"line":null,"message":"m","path":null,"severity":"error"}"#)
        #expect(try JSONDecoder().decode(Finding.self, from: Data(try json(finding).utf8)) == finding)
    }
}

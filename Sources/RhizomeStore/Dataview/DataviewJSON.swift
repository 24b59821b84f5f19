import RhizomeCore

/// Reads the index's frontmatter JSON (`file.frontmatter_json`, written by `JSONText`) straight into
/// Dataview values: the query path parses one document per page, so this avoids Foundation's decoder.
enum DataviewJSON {
    static func parse(_ text: String) -> DataviewValue? {
        var copy = text
        return copy.withUTF8 { bytes in
            var reader = Reader(bytes: bytes)
            let value = reader.value()
            reader.skipSpace()
            return reader.index == bytes.count ? value : nil
        }
    }

    /// Parses a document whose top level is an object, skipping without building them the values of keys
    /// `keys` refuses. Other documents parse whole.
    static func parse(_ text: String, keys: inout KeyMemo) -> DataviewValue? {
        var copy = text
        return copy.withUTF8 { bytes in
            var reader = Reader(bytes: bytes, keys: keys)
            defer { keys = reader.keys! }
            reader.skipSpace()
            let value = reader.index < bytes.count && bytes[reader.index] == UInt8(ascii: "{") ? reader.object(filtered: true) : reader.value()
            reader.skipSpace()
            return reader.index == bytes.count ? value : nil
        }
    }

    /// Which top-level keys to keep, decided once per distinct key and then looked up by the key's bytes:
    /// a vault's notes share a few dozen keys, and a skipped key never becomes a string.
    struct KeyMemo {
        private struct Slot {
            var hash: UInt64
            var bytes: [UInt8]
            var keep: Bool
        }

        private let decide: (String) -> Bool
        private var slots: [Slot?] = Array(repeating: nil, count: 64)
        private var used = 0

        init(decide: @escaping (String) -> Bool) { self.decide = decide }

        mutating func keeps(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
            for byte in key { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let mask = slots.count - 1
            var position = Int(truncatingIfNeeded: hash) & mask
            while let slot = slots[position] {
                if slot.hash == hash && slot.bytes.elementsEqual(key) { return slot.keep }
                position = (position + 1) & mask
            }
            let keep = decide(String(decoding: key, as: UTF8.self))
            slots[position] = Slot(hash: hash, bytes: Array(key), keep: keep)
            used += 1
            if used * 2 > slots.count { grow() }
            return keep
        }

        private mutating func grow() {
            let old = slots
            slots = Array(repeating: nil, count: old.count * 2)
            let mask = slots.count - 1
            for case let slot? in old {
                var position = Int(truncatingIfNeeded: slot.hash) & mask
                while slots[position] != nil { position = (position + 1) & mask }
                slots[position] = slot
            }
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Which keys of the top-level object to keep (nil: all).
        var keys: KeyMemo? = nil

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
        }

        mutating func value() -> DataviewValue? {
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                return object(filtered: false)
            case UInt8(ascii: "["):
                index += 1
                var items: [DataviewValue] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .list(items) }
                while true {
                    guard let item = value() else { return nil }
                    items.append(item)
                    skipSpace()
                    guard index < bytes.count else { return nil }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .list(items) }
                    return nil
                }
            case UInt8(ascii: "\""):
                return string().map(DataviewValue.string)
            case UInt8(ascii: "t"): return literal("true", .boolean(true))
            case UInt8(ascii: "f"): return literal("false", .boolean(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default:
                let start = index
                while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
                guard index > start else { return nil }
                return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)).map(DataviewValue.number)
            }
        }

        /// An object (the reader is at its `{`). When `filtered`, the values of keys `keys` refuses are
        /// skipped: a key without escapes is decided on its bytes, one with escapes decoded first.
        mutating func object(filtered: Bool) -> DataviewValue? {
            index += 1
            var object = DataviewObject()
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
            while true {
                skipSpace()
                let key: String?
                if filtered {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
                    var end = index + 1
                    while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
                    guard end < bytes.count else { return nil }
                    if bytes[end] == UInt8(ascii: "\"") {
                        let raw = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
                        index = end + 1
                        key = keys!.keeps(raw) ? String(decoding: raw, as: UTF8.self) : nil
                    } else {
                        guard let decoded = string() else { return nil }
                        var utf8 = decoded
                        key = utf8.withUTF8 { keys!.keeps($0) } ? decoded : nil
                    }
                } else {
                    guard let decoded = string() else { return nil }
                    key = decoded
                }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                if let key {
                    guard let item = value() else { return nil }
                    object[key] = item
                } else {
                    guard skipValue() else { return nil }
                }
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(object) }
                return nil
            }
        }

        /// Moves past one value without building it (its syntax is checked only as far as nesting goes).
        mutating func skipValue() -> Bool {
            skipSpace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                return skipString()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") {
                        guard skipString() else { return false }
                        continue
                    }
                    index += 1
                    if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                        depth += 1
                    } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                        depth -= 1
                        if depth == 0 { return true }
                    }
                }
                return false
            default:
                let start = index
                while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
                return index > start
            }
        }

        mutating func skipString() -> Bool {
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                index += byte == UInt8(ascii: "\\") ? 2 : 1
                if byte == UInt8(ascii: "\"") { return true }
            }
            return false
        }

        static func endsScalar(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20 || byte == 0x0A
                || byte == 0x0D || byte == 0x09
        }

        mutating func literal(_ word: StaticString, _ value: DataviewValue) -> DataviewValue? {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return nil }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return nil }
            index += count
            return value
        }

        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            let start = index
            // Fast path: no escapes.
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            var output = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return String(decoding: output, as: UTF8.self) }
                guard byte == UInt8(ascii: "\\"), index < bytes.count else { output.append(byte); continue }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(scalar), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                       bytes[index + 1] == UInt8(ascii: "u") {
                        index += 2
                        guard let low = hex4() else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    output += Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8)
                default: output.append(escaped)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                let digit: UInt32
                switch byte {
                case 48...57: digit = UInt32(byte - 48)
                case 65...70: digit = UInt32(byte - 55)
                case 97...102: digit = UInt32(byte - 87)
                default: return nil
                }
                value = value << 4 | digit
            }
            return value
        }

        static func isNumberByte(_ byte: UInt8) -> Bool {
            (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        }
    }
}

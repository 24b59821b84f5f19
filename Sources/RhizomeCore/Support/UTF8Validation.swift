/// UTF-8 checks on raw file bytes (files may be in any encoding; we index them as UTF-8).
public enum UTF8Validation {
    /// Offset of the first byte that is not part of valid UTF-8, or nil if all of it is valid.
    public static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer in
            // Fast path: ASCII eight bytes at a time.
            var index = 0
            let count = buffer.count
            let raw = UnsafeRawBufferPointer(buffer)
            while index < count {
                if index + 8 <= count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
                let lead = buffer[index]
                if lead < 0x80 { index += 1; continue }
                let length: Int
                var minimum: UInt32
                switch lead {
                case 0xC2...0xDF: length = 2; minimum = 0x80
                case 0xE0...0xEF: length = 3; minimum = 0x800
                case 0xF0...0xF4: length = 4; minimum = 0x10000
                default: return index
                }
                guard index + length <= count else { return index }
                var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for offset in 1..<length {
                    let byte = buffer[index + offset]
                    guard byte & 0xC0 == 0x80 else { return index }
                    value = value << 6 | UInt32(byte & 0x3F)
                }
                minimum = max(minimum, 0)
                guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return index }
                index += length
            }
            return nil
        }
    }

    /// The bytes as a String when they are valid UTF-8, else nil (`String(validating:as:)` needs macOS 15).
    public static func string(validating bytes: [UInt8]) -> String? {
        firstInvalidOffset(bytes) == nil ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Whether the bytes contain NUL, the usual sign of a binary file.
    public static func containsNUL(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            return memchrNUL(base, buffer.count)
        }
    }

    /// 1-based line and column (in bytes) of an offset.
    public static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, offset - lineStart + 1)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

private func memchrNUL(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    memchr(base, 0, count) != nil
}

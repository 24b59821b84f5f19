/// A fast, non-cryptographic 64-bit content hash used to tell whether a file really changed
/// after its size or mtime did. Stable across runs and platforms (it is stored in the index).
public enum ContentHash {
    public static func hex<C: Collection>(of bytes: C) -> String where C.Element == UInt8 {
        let value = hash(bytes)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    public static func hash<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ hash(buffer: UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { hash(buffer: $0) }
    }

    /// Word-at-a-time multiply–xorshift mixing (in the spirit of wyhash/FNV, not either exactly).
    public static func hash(buffer: UnsafeRawBufferPointer) -> UInt64 {
        let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
        let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var state: UInt64 = 0x2545_F491_4F6C_DD1D ^ (UInt64(buffer.count) &* prime1)
        var offset = 0
        let count = buffer.count
        while offset + 8 <= count {
            let word = UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            state ^= word &* prime2
            state = (state << 31 | state >> 33) &* prime1
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < count {
            tail |= UInt64(buffer[offset]) << shift
            shift += 8
            offset += 1
        }
        state ^= tail &* prime2
        state ^= state >> 29
        state = state &* prime1
        state ^= state >> 32
        return state
    }
}

/// The string hash behind Dataview's `hash()`: cyrb53 (a public-domain 53-bit hash by bryc), over the
/// text's UTF-16 units as JavaScript sees them, so the same seed gives the same number as in Dataview.
enum DataviewHash {
    static func cyrb53(_ text: String, seed: Double) -> UInt64 {
        let variant = UInt32(truncatingIfNeeded: javaScriptInt32(seed))
        var h1: UInt32 = 0xDEAD_BEEF ^ variant, h2: UInt32 = 0x41C6_CE57 ^ variant
        for unit in text.utf16 {
            h1 = (h1 ^ UInt32(unit)) &* 0x9E37_79B1
            h2 = (h2 ^ UInt32(unit)) &* 0x5F35_6495
        }
        h1 = ((h1 ^ (h1 >> 16)) &* 0x85EB_CA6B) ^ ((h2 ^ (h2 >> 13)) &* 0xC2B2_AE35)
        h2 = ((h2 ^ (h2 >> 16)) &* 0x85EB_CA6B) ^ ((h1 ^ (h1 >> 13)) &* 0xC2B2_AE35)
        return UInt64(h2 & 0x1F_FFFF) << 32 | UInt64(h1)
    }

    /// JavaScript's ToInt32: truncated toward zero, modulo 2^32; NaN and infinities are 0.
    private static func javaScriptInt32(_ value: Double) -> Int32 {
        guard value.isFinite else { return 0 }
        let truncated = value.rounded(.towardZero)
        let modulo = truncated.truncatingRemainder(dividingBy: 4_294_967_296)
        return Int32(truncatingIfNeeded: Int64(modulo))
    }
}

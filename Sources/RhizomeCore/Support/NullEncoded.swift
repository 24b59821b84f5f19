/// An optional that JSON output writes as `null` when it has no value, instead of leaving its key out.
///
/// Every key of Rhizome's JSON is always present, so agents and scripts can rely on the shape; the
/// compiler's `encode(to:)` leaves out a nil optional. Mark such properties `@NullEncoded` and let the
/// compiler write the rest. Decoding accepts `null` and a missing key alike.
@propertyWrapper
public struct NullEncoded<Value> {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension NullEncoded: Sendable where Value: Sendable {}
extension NullEncoded: Equatable where Value: Equatable {}
extension NullEncoded: Hashable where Value: Hashable {}

extension NullEncoded: Encodable where Value: Encodable {
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension NullEncoded: Decodable where Value: Decodable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes as no value, as it does for a plain optional.
    public func decode<Value: Decodable>(_ type: NullEncoded<Value>.Type, forKey key: Key) throws -> NullEncoded<Value> {
        try decodeIfPresent(type, forKey: key) ?? NullEncoded(wrappedValue: nil)
    }
}

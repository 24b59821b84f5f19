/// Two values encoded as one JSON object: the keys of `base`, then those of `extra` (which must not
/// repeat them). For output that is an existing result plus a few keys (`explore --dry-run --json`: the
/// prompt plan, with the notes' scores), without a hand-written `encode(to:)` listing every key.
///
///     struct Scores: Encodable { var scores: [RelevantNote] }
///     printJSON(MergedJSON(plan, Scores(scores: notes)))
public struct MergedJSON<Base: Encodable, Extra: Encodable>: Encodable {
    public var base: Base
    public var extra: Extra

    public init(_ base: Base, _ extra: Extra) {
        self.base = base
        self.extra = extra
    }

    public func encode(to encoder: Encoder) throws {
        try base.encode(to: encoder)
        try extra.encode(to: encoder)
    }
}

extension MergedJSON: Sendable where Base: Sendable, Extra: Sendable {}

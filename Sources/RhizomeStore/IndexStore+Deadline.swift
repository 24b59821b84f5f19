/// Time limits and cancellation for work on the index: a `QueryDeadline` set on the store's connection
/// ends its SQL inside SQLite and the Swift loops that check it (Dataview's data commands).
extension IndexStore {
    /// Runs `body` with `deadline` on this store's connection; it ends with `StoreError.timedOut` or
    /// `.cancelled` once the deadline passes or is cancelled. The connection's earlier deadline, if any,
    /// is restored afterwards.
    public func withDeadline<Result>(_ deadline: QueryDeadline, _ body: () throws -> Result) throws -> Result {
        let previous = connection.deadline
        connection.deadline = deadline
        defer { connection.deadline = previous }
        try deadline.check()
        return try body()
    }

    /// The deadline set on this store's connection, if any (work that opens connections of its own, such
    /// as `untrustedQuery`, passes it on).
    public var deadline: QueryDeadline? { connection.deadline }
}

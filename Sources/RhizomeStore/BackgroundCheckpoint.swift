import Dispatch

/// A passive checkpoint of a database's write-ahead log, run on a connection of its own on another
/// thread. `wait()` returns when it is done (a failure is ignored: closing the index checkpoints anyway).
final class BackgroundCheckpoint: Sendable {
    private let group = DispatchGroup()

    init(databasePath: String) {
        DispatchQueue.global(qos: .utility).async(group: group) {
            guard let connection = try? SQLiteConnection(path: databasePath) else { return }
            try? connection.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
    }

    func wait() { group.wait() }
}

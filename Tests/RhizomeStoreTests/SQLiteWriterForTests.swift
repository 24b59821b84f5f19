@testable import RhizomeStore

/// Direct write access to an index file, to put it in states only a crash could leave it in.
struct SQLiteWriterForTests {
    let connection: SQLiteConnection

    init(path: String) throws {
        connection = try SQLiteConnection(path: path)
    }

    func execute(_ sql: String) throws {
        try connection.execute(sql)
    }
}

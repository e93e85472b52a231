import SQLiteKit

/// A connection with its cache of prepared statements, so that every statement the engine
/// issues repeatedly is prepared once per connection.
///
/// Confined like its `Database`: the coordinator hands it to one thread at a time.
final class Connection: @unchecked Sendable {
    let db: Database
    private var cache: [String: Statement] = [:]

    init(_ db: Database) { self.db = db }

    /// Statements kept at most: a bound, so that SQL built from data (lists of varying length)
    /// cannot grow memory with the run.
    static let cacheLimit = 256

    /// The prepared statement for `sql`, prepared on first use. It is reset before it is
    /// returned, so a statement abandoned by an error is ready again.
    func statement(_ sql: String) throws -> Statement {
        if let s = cache[sql] {
            s.reset()
            return s
        }
        if cache.count >= Self.cacheLimit { cache.removeAll() }
        let s = try db.prepare(sql)
        cache[sql] = s
        return s
    }

    /// Finalizes the prepared statement for `sql`, if cached: the next use prepares it again.
    func evict(_ sql: String) {
        cache[sql] = nil
    }

    /// Runs a transaction-control or other one-off statement, through the cache.
    func execute(_ sql: String) throws {
        try statement(sql).run()
    }
}

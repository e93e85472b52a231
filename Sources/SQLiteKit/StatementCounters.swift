import Synchronization

/// What a statement does, decided once when it is prepared, so counting costs one atomic add.
package enum StatementKind: Int, CaseIterable, Sendable {
    case select, insert, update, delete, transaction, other

    /// Classifies SQL by its first keyword. `WITH` is treated as a select (the engine only
    /// uses common table expressions for reads); `PRAGMA` and DDL count as `other`.
    package static func classify(_ sql: some StringProtocol) -> StatementKind {
        var word = ""
        for ch in sql.unicodeScalars {
            if ch.properties.isWhitespace || ch == "(" {
                if word.isEmpty { continue } else { break }
            }
            word.unicodeScalars.append(ch)
            if word.count > 9 { break }
        }
        switch word.uppercased() {
        case "SELECT", "WITH", "VALUES": return .select
        case "INSERT", "REPLACE": return .insert
        case "UPDATE": return .update
        case "DELETE": return .delete
        case "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE": return .transaction
        default: return .other
        }
    }
}

/// Counts every statement executed, by kind, across all the connections that share it.
///
/// This is the one place SQL is counted: every `Statement.step()` that starts an execution
/// adds one here, so the reporter's `sql_statements` and `sql_selects` cannot miss a path.
/// Atomics make it safe to share between writer threads; relaxed ordering is enough
/// because the totals are read only after the work has been joined.
package final class StatementCounters: Sendable {
    // One atomic per kind: `Atomic` is not copyable, so it cannot live in an array.
    private let selects = Atomic<Int>(0), inserts = Atomic<Int>(0), updates = Atomic<Int>(0)
    private let deletes = Atomic<Int>(0), transactions = Atomic<Int>(0), others = Atomic<Int>(0)
    private let commits = Atomic<Int>(0)
    private let vmSteps = Atomic<Int>(0)
    private let rows = Atomic<Int>(0)
    private let recording = Atomic<Bool>(false)
    private let log = Protected<[String]>([])

    package init(keepsSQLLog: Bool = false) { self.keepsSQLLog = keepsSQLLog }

    // MARK: Recording (for tests that assert the exact SQL a operation issues)

    /// Starts keeping the text of every statement executed from now on.
    package func startRecording() {
        log.withLock { $0.removeAll() }
        recording.store(true, ordering: .relaxed)
    }

    /// Stops recording and returns what was executed, in order.
    @discardableResult
    package func stopRecording() -> [String] {
        recording.store(false, ordering: .relaxed)
        return log.withLock { $0 }
    }

    /// Whether the connections opened on these counters keep the SQL debug log (tests that
    /// compare it with a real Core Data log). Fixed when they open: the hot path reads one
    /// stored flag per statement (an atomic read there was +0.5 % of a save per row's
    /// instructions in the gate).
    package let keepsSQLLog: Bool
    private let debugLines = Protected<String>("")

    /// The SQL debug log kept so far (nothing unless `keepsSQLLog`), and a fresh one after it.
    package func takeSQLLog() -> String {
        debugLines.withLock { text in
            defer { text = "" }
            return text
        }
    }

    func keepLog(_ text: String) {
        if keepsSQLLog { debugLines.withLock { $0 += text } }
    }

    @inline(__always)
    func note(_ sql: String) {
        if recording.load(ordering: .relaxed) { log.withLock { $0.append(sql) } }
    }

    /// Records one execution of a statement of `kind`.
    @inline(__always)
    package func record(_ kind: StatementKind) {
        switch kind {
        case .select: selects.wrappingAdd(1, ordering: .relaxed)
        case .insert: inserts.wrappingAdd(1, ordering: .relaxed)
        case .update: updates.wrappingAdd(1, ordering: .relaxed)
        case .delete: deletes.wrappingAdd(1, ordering: .relaxed)
        case .transaction: transactions.wrappingAdd(1, ordering: .relaxed)
        case .other: others.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// Records one committed transaction (`COMMIT`, or an autocommit write outside one).
    @inline(__always)
    package func recordCommit() {
        commits.wrappingAdd(1, ordering: .relaxed)
    }

    /// Adds the virtual-machine steps a statement ran since it was last reset
    /// (`SQLITE_STMTSTATUS_VM_STEP`): SQLite's own count of the work its statements did,
    /// repeatable for the same SQL on the same data, counted at each reset and at finalize.
    func recordVMSteps(_ steps: Int) {
        vmSteps.wrappingAdd(steps, ordering: .relaxed)
    }

    /// Adds the rows an execution of a statement returned (a query's result rows), once per
    /// execution when it ends.
    func recordRows(_ n: Int) {
        rows.wrappingAdd(n, ordering: .relaxed)
    }

    /// The number of executions of `kind` so far.
    package func count(_ kind: StatementKind) -> Int {
        switch kind {
        case .select: selects.load(ordering: .relaxed)
        case .insert: inserts.load(ordering: .relaxed)
        case .update: updates.load(ordering: .relaxed)
        case .delete: deletes.load(ordering: .relaxed)
        case .transaction: transactions.load(ordering: .relaxed)
        case .other: others.load(ordering: .relaxed)
        }
    }

    /// Every statement executed so far, of any kind.
    package var total: Int {
        StatementKind.allCases.reduce(0) { $0 + count($1) }
    }

    /// Transactions committed so far.
    package var committedTransactions: Int { commits.load(ordering: .relaxed) }

    /// A plain-value copy, for reports and test assertions.
    package func snapshot() -> Snapshot {
        Snapshot(
            select: count(.select), insert: count(.insert), update: count(.update),
            delete: count(.delete), transaction: count(.transaction), other: count(.other),
            commits: committedTransactions, vmSteps: vmSteps.load(ordering: .relaxed),
            rows: rows.load(ordering: .relaxed))
    }

    /// Counts at one moment.
    package struct Snapshot: Equatable, Sendable, Codable {
        package var select = 0, insert = 0, update = 0, delete = 0, transaction = 0, other = 0, commits = 0
        /// SQLite VM steps of the statements finalized so far (see `recordVMSteps`).
        package var vmSteps = 0
        /// Rows the queries returned (see `recordRows`): what the store handed back.
        package var rows = 0

        package init(
            select: Int = 0, insert: Int = 0, update: Int = 0, delete: Int = 0,
            transaction: Int = 0, other: Int = 0, commits: Int = 0, vmSteps: Int = 0, rows: Int = 0
        ) {
            self.select = select
            self.insert = insert
            self.update = update
            self.delete = delete
            self.transaction = transaction
            self.other = other
            self.commits = commits
            self.vmSteps = vmSteps
            self.rows = rows
        }

        package var total: Int { select + insert + update + delete + transaction + other }

        /// What was counted between two snapshots.
        package static func - (a: Snapshot, b: Snapshot) -> Snapshot {
            Snapshot(
                select: a.select - b.select, insert: a.insert - b.insert, update: a.update - b.update,
                delete: a.delete - b.delete, transaction: a.transaction - b.transaction, other: a.other - b.other,
                commits: a.commits - b.commits, vmSteps: a.vmSteps - b.vmSteps, rows: a.rows - b.rows)
        }

    }
}

import SQLiteKit

/// A results row read back from its CSV fields (for `plot`, `report` and summaries of old runs):
/// the inverse of `ResultRow.columns`, as far as the file holds it.
extension ResultRow {
    /// Nil when the row lacks the fields every row has.
    package init?(csv f: [String: String]) {
        guard let status = RunStatus(rawValue: f["status"] ?? "") else { return nil }
        func int(_ c: String) -> Int? { f[c].flatMap { Int($0) } }
        func uint(_ c: String) -> UInt64? { f[c].flatMap { UInt64($0) } }
        func double(_ c: String) -> Double? { f[c].flatMap { Double($0) } }
        func text(_ c: String) -> String? { f[c].flatMap { $0.isEmpty ? nil : $0 } }

        let system = SystemInfo(gitRevision: f["git_rev"] ?? "", host: f["host"] ?? "", cpuModel: f["cpu_model"] ?? "",
                                cores: int("cores") ?? 0, os: f["os"] ?? "", swiftVersion: f["swift_version"] ?? "",
                                sqliteVersion: f["sqlite_version"] ?? "", allocator: f["allocator"] ?? "")
        var m = RunMeasurement(status: status)
        m.wallSeconds = double("wall_s")
        m.cpuUserSeconds = double("cpu_user_s")
        m.cpuSystemSeconds = double("cpu_sys_s")
        // The file keeps the rate, not the count: rows done is the rate times the time.
        if let rate = double("rows_per_s"), let wall = m.wallSeconds { m.rowsDone = Int((rate * wall).rounded()) }
        m.peakRSSBytes = int("peak_rss_bytes")
        m.endRSSBytes = int("end_rss_bytes")
        m.peakHeapBytes = int("peak_heap_bytes")
        m.endHeapBytes = int("end_heap_bytes")
        if let total = int("sql_statements") {
            let select = int("sql_selects") ?? 0, insert = int("sql_inserts") ?? 0
            let update = int("sql_updates") ?? 0, delete = int("sql_deletes") ?? 0
            m.sql = StatementCounters.Snapshot(select: select, insert: insert, update: update, delete: delete,
                                               other: max(0, total - select - insert - update - delete),
                                               commits: int("transactions") ?? 0, vmSteps: int("sql_vm_steps") ?? 0)
        }
        var s = StrategyCounters()
        s.saves = int("saves")
        s.busyRetries = int("busy_retries")
        s.conflicts = int("conflicts")
        s.saveP50Milliseconds = double("save_p50_ms")
        s.saveP99Milliseconds = double("save_p99_ms")
        s.latencyP50Milliseconds = double("latency_p50_ms")
        s.latencyP99Milliseconds = double("latency_p99_ms")
        s.latencyMaxMilliseconds = double("latency_max_ms")
        s.mergeMillisecondsTotal = double("merge_ms_total")
        s.viewObjects = int("view_objects")
        s.fellBehind = text("kept_up").map { $0 == "no" }
        s.peakBacklog = int("backlog_max")
        s.objectsRead = int("objects_read")
        s.historyLagP50Milliseconds = double("history_lag_p50_ms")
        s.historyLagP99Milliseconds = double("history_lag_p99_ms")
        s.autoMergeMissed = int("auto_merge_missed")
        if s != StrategyCounters() { m.strategy = s }
        if let rows = int("store_rows") {
            var v = Verification(storeRows: rows, duplicates: int("duplicates") ?? 0, lost: int("lost") ?? 0,
                                 badLinks: int("bad_links") ?? 0, integrity: f["integrity"] ?? "", storeBytes: int("store_bytes") ?? 0)
            v.viewMissing = int("view_missing")
            v.unexpectedRows = int("unexpected_rows") ?? 0
            v.historyChanges = int("history_changes")
            m.verification = v
        }
        m.leakedConnections = int("leaked_connections")
        m.allocations = uint("allocations")
        m.allocatedBytesTotal = uint("allocated_bytes_total")
        m.instructions = uint("instructions")
        m.instructionsCountedBy = text("instructions_by")
        m.prefillSeconds = double("prefill_s")
        m.targets = int("targets")
        m.error = text("error")
        var parameters: [String: String] = [:]
        for column in Self.parameterColumns { parameters[column] = f[column] ?? "" }
        self.init(identity: RunIdentity(runID: f["run_id"] ?? "", startedAt: f["started_at"] ?? "", system: system),
                  parameters: ParameterValues(parameters), repetition: int("repeat") ?? 1, repetitions: int("repeats") ?? 1,
                  configuration: f["config"] ?? "", measurement: m, vsLimit: double("vs_limit"))
    }
}

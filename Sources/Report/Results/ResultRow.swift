/// One CSV row: a measured repetition with its identity and parameters.
///
/// `columns` is the file format. Its order is the brief's (§6); columns added later are
/// appended at the end, never inserted, so that readers by position keep working.
package struct ResultRow: Sendable {
    package var identity: RunIdentity
    package var parameters: ParameterValues
    /// 1-based index of this repetition, and how many were measured.
    package var repetition: Int
    package var repetitions: Int
    /// The swept parameters this row's strategy uses, as `name=value` pairs ("" without a sweep):
    /// which point of the sweep it measures.
    package var configuration: String
    package var measurement: RunMeasurement
    /// rows_per_s ÷ the limit's rows_per_s, measured in the same round on the same records.
    package var vsLimit: Double?

    package init(identity: RunIdentity, parameters: ParameterValues, repetition: Int = 1, repetitions: Int = 1,
                configuration: String = "", measurement: RunMeasurement, vsLimit: Double? = nil) {
        self.identity = identity
        self.parameters = parameters
        self.repetition = repetition
        self.repetitions = repetitions
        self.configuration = configuration
        self.measurement = measurement
        self.vsLimit = vsLimit
    }

    /// Every column, in file order, with how to render it.
    package static let columns: [(name: String, value: @Sendable (ResultRow) -> String)] = [
        // Identity
        ("run_id", { $0.identity.runID }),
        ("started_at", { $0.identity.startedAt }),
        ("git_rev", { $0.identity.system.gitRevision }),
        ("host", { $0.identity.system.host }),
        ("cpu_model", { $0.identity.system.cpuModel }),
        ("cores", { String($0.identity.system.cores) }),
        ("os", { $0.identity.system.os }),
        ("swift_version", { $0.identity.system.swiftVersion }),
        ("sqlite_version", { $0.identity.system.sqliteVersion }),
        ("allocator", { $0.identity.system.allocator }),
        // Parameters
        ("strategy", { $0.parameters["strategy"] }),
        ("dataset", { $0.parameters["dataset"] }),
        ("rows", { $0.parameters["rows"] }),
        ("unique_keys", { $0.parameters["unique_keys"] }),
        ("dup_rate", { $0.parameters["dup_rate"] }),
        ("key_dist", { $0.parameters["key_dist"] }),
        ("seed", { $0.parameters["seed"] }),
        ("batch_size", { $0.parameters["batch_size"] }),
        ("writers", { $0.parameters["writers"] }),
        ("producer_latency_us", { $0.parameters["producer_latency_us"] }),
        ("store", { $0.parameters["store"] }),
        ("journal", { $0.parameters["journal"] }),
        ("synchronous", { $0.parameters["synchronous"] }),
        ("repeat", { String($0.repetition) }),
        ("repeats", { String($0.repetitions) }),
        // Measured
        ("status", { $0.measurement.status.rawValue }),
        ("wall_s", { cell($0.measurement.wallSeconds, 6) }),
        ("cpu_user_s", { cell($0.measurement.cpuUserSeconds, 6) }),
        ("cpu_sys_s", { cell($0.measurement.cpuSystemSeconds, 6) }),
        ("rows_per_s", { cell($0.measurement.rowsPerSecond, 1) }),
        ("vs_limit", { cell($0.vsLimit, 4) }),
        ("peak_rss_bytes", { cell($0.measurement.peakRSSBytes) }),
        ("end_rss_bytes", { cell($0.measurement.endRSSBytes) }),
        ("peak_heap_bytes", { cell($0.measurement.peakHeapBytes) }),
        ("sql_statements", { cell($0.measurement.sql?.total) }),
        ("sql_selects", { cell($0.measurement.sql?.select) }),
        ("saves", { cell($0.measurement.strategy?.saves) }),
        ("transactions", { cell($0.measurement.sql?.commits) }),
        ("busy_retries", { cell($0.measurement.strategy?.busyRetries) }),
        ("conflicts", { cell($0.measurement.strategy?.conflicts) }),
        ("save_p50_ms", { cell($0.measurement.strategy?.saveP50Milliseconds, 3) }),
        ("save_p99_ms", { cell($0.measurement.strategy?.saveP99Milliseconds, 3) }),
        ("store_rows", { cell($0.measurement.verification?.storeRows) }),
        ("duplicates", { cell($0.measurement.verification?.duplicates) }),
        ("lost", { cell($0.measurement.verification?.lost) }),
        ("integrity", { $0.measurement.verification?.integrity ?? "" }),
        ("store_bytes", { cell($0.measurement.verification?.storeBytes) }),
        ("error", { $0.measurement.error ?? "" }),
        // Appended after the brief's list
        ("end_heap_bytes", { cell($0.measurement.endHeapBytes) }),
        ("bad_links", { cell($0.measurement.verification?.badLinks) }),
        ("coordinators", { $0.parameters["coordinators"] }),
        ("zipf_s", { $0.parameters["zipf_s"] }),
        ("input", { $0.parameters["input"] }),
        ("rate", { $0.parameters["rate"] }),
        ("latency_p50_ms", { cell($0.measurement.strategy?.latencyP50Milliseconds, 3) }),
        ("latency_p99_ms", { cell($0.measurement.strategy?.latencyP99Milliseconds, 3) }),
        ("latency_max_ms", { cell($0.measurement.strategy?.latencyMaxMilliseconds, 3) }),
        ("merge_ms_total", { cell($0.measurement.strategy?.mergeMillisecondsTotal, 3) }),
        ("view_objects", { cell($0.measurement.strategy?.viewObjects) }),
        ("key_order", { $0.parameters["key_order"] }),
        ("view_missing", { cell($0.measurement.verification?.viewMissing) }),
        ("kept_up", { $0.measurement.strategy?.fellBehind.map { $0 ? "no" : "yes" } ?? "" }),
        ("unexpected_rows", { cell($0.measurement.verification?.unexpectedRows) }),
        ("leaked_connections", { cell($0.measurement.leakedConnections) }),
        ("backlog_max", { cell($0.measurement.strategy?.peakBacklog) }),
        ("categories", { $0.parameters["categories"] }),
        ("albums", { $0.parameters["albums"] }),
        ("payload_bytes", { $0.parameters["payload_bytes"] }),
        ("view_context", { $0.parameters["view_context"] }),
        ("config", { $0.configuration }),
        ("allocations", { cell($0.measurement.allocations) }),
        ("allocated_bytes_total", { cell($0.measurement.allocatedBytesTotal) }),
        ("sql_inserts", { cell($0.measurement.sql?.insert) }),
        ("sql_updates", { cell($0.measurement.sql?.update) }),
        ("sql_deletes", { cell($0.measurement.sql?.delete) }),
        ("sql_vm_steps", { cell($0.measurement.sql?.vmSteps) }),
        ("instructions", { cell($0.measurement.instructions) }),
        ("instructions_by", { $0.measurement.instructionsCountedBy ?? "" }),
        ("operation", { $0.parameters["operation"] }),
        ("fraction", { $0.parameters["fraction"] }),
        ("prefill_s", { cell($0.measurement.prefillSeconds, 6) }),
        ("targets", { cell($0.measurement.targets) }),
        ("objects_read", { cell($0.measurement.strategy?.objectsRead) }),
        ("history", { $0.parameters["history"] }),
        ("history_changes", { cell($0.measurement.verification?.historyChanges) }),
        ("history_lag_p50_ms", { cell($0.measurement.strategy?.historyLagP50Milliseconds, 3) }),
        ("history_lag_p99_ms", { cell($0.measurement.strategy?.historyLagP99Milliseconds, 3) }),
        ("auto_merge_missed", { cell($0.measurement.strategy?.autoMergeMissed) }),
    ]

    /// Columns that hold text, whatever they look like (a git revision may be all digits): the
    /// others are numbers or blank, and `--json` writes them as numbers or null.
    package static let textColumns: Set<String> = [
        "run_id", "started_at", "git_rev", "host", "cpu_model", "os", "swift_version", "sqlite_version", "allocator",
        "strategy", "dataset", "key_dist", "store", "journal", "synchronous", "status", "integrity", "error",
        "coordinators", "input", "key_order", "kept_up", "view_context", "config", "instructions_by", "operation",
        "history",
    ]

    /// The columns that say what was asked for (the parameters): a configuration is one value
    /// of each. Charts, summaries and the nightly comparison group rows by them.
    package static let parameterColumns: [String] = [
        "strategy", "dataset", "rows", "unique_keys", "dup_rate", "key_dist", "seed", "batch_size", "writers",
        "producer_latency_us", "store", "journal", "synchronous", "coordinators", "zipf_s", "input", "rate", "key_order",
        "categories", "albums", "payload_bytes", "view_context", "operation", "fraction",
        "history",
    ]

    /// The header line's fields.
    package static var header: [String] { columns.map(\.name) }

    /// This row's fields, in column order.
    package var fields: [String] { Self.columns.map { $0.value(self) } }
}

private func cell(_ value: Int?) -> String { value.map(String.init) ?? "" }
private func cell(_ value: UInt64?) -> String { value.map(String.init) ?? "" }
private func cell(_ value: Double?, _ decimals: Int) -> String {
    guard let value, value.isFinite else { return "" }
    return Format.fixed(value, decimals)
}

/// The name of a results column, declared once here (GRDB's `Columns` pattern): everything
/// that writes, reads, groups, judges, exports or charts a column names it through its key
/// (`Column.batchSize`), so a rename is a compile error and a misspelt name cannot reach a
/// look-up. `ResultRow.columns` gives each its rules and its place in the file;
/// `ColumnTableTests` holds the two to the same set, and `ColumnNameTests` finds no column name
/// written as a string anywhere else in Sources.
package struct Column: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The name in the file's header.
    package let name: String

    private init(_ name: String) { self.name = name }

    package var description: String { name }

    package static func < (a: Column, b: Column) -> Bool { a.name < b.name }

    /// The column of a header field, when it is one of the file's.
    package init?(header name: String) {
        guard let known = Self.byName[name] else { return nil }
        self = known
    }

    /// A parameter a team chooses, which can tell two configurations of one strategy apart:
    /// not the strategy itself, nor one that follows from others (`ResultColumn.following`).
    /// Labels, sweeps, charts' lines and recommendations' headings vary over these.
    package var isFreeParameter: Bool {
        let column = ResultRow.column(self)
        return column.isParameter && !column.followsFromOthers && self != .strategy
    }

    private static let byName = Dictionary(uniqueKeysWithValues: declared.map { ($0.name, $0) })
}

// MARK: - Every column, in file order

extension Column {
    package static let runID = Column("run_id")
    package static let startedAt = Column("started_at")
    package static let gitRev = Column("git_rev")
    package static let host = Column("host")
    package static let cpuModel = Column("cpu_model")
    package static let cores = Column("cores")
    package static let os = Column("os")
    package static let swiftVersion = Column("swift_version")
    package static let sqliteVersion = Column("sqlite_version")
    package static let allocator = Column("allocator")
    package static let strategy = Column("strategy")
    package static let dataset = Column("dataset")
    package static let rows = Column("rows")
    package static let uniqueKeys = Column("unique_keys")
    package static let dupRate = Column("dup_rate")
    package static let keyDist = Column("key_dist")
    package static let seed = Column("seed")
    package static let batchSize = Column("batch_size")
    package static let writers = Column("writers")
    package static let producerLatencyUs = Column("producer_latency_us")
    package static let store = Column("store")
    package static let journal = Column("journal")
    package static let synchronous = Column("synchronous")
    package static let `repeat` = Column("repeat")
    package static let repeats = Column("repeats")
    package static let status = Column("status")
    package static let wallS = Column("wall_s")
    package static let cpuUserS = Column("cpu_user_s")
    package static let cpuSysS = Column("cpu_sys_s")
    package static let rowsPerS = Column("rows_per_s")
    package static let vsLimit = Column("vs_limit")
    package static let peakRssBytes = Column("peak_rss_bytes")
    package static let endRssBytes = Column("end_rss_bytes")
    package static let peakHeapBytes = Column("peak_heap_bytes")
    package static let sqlStatements = Column("sql_statements")
    package static let sqlSelects = Column("sql_selects")
    package static let saves = Column("saves")
    package static let transactions = Column("transactions")
    package static let busyRetries = Column("busy_retries")
    package static let conflicts = Column("conflicts")
    package static let saveP50Ms = Column("save_p50_ms")
    package static let saveP99Ms = Column("save_p99_ms")
    package static let storeRows = Column("store_rows")
    package static let duplicates = Column("duplicates")
    package static let lost = Column("lost")
    package static let integrity = Column("integrity")
    package static let storeBytes = Column("store_bytes")
    package static let error = Column("error")
    package static let endHeapBytes = Column("end_heap_bytes")
    package static let badLinks = Column("bad_links")
    package static let coordinators = Column("coordinators")
    package static let zipfS = Column("zipf_s")
    package static let input = Column("input")
    package static let rate = Column("rate")
    package static let latencyP50Ms = Column("latency_p50_ms")
    package static let latencyP99Ms = Column("latency_p99_ms")
    package static let latencyMaxMs = Column("latency_max_ms")
    package static let mergeMsTotal = Column("merge_ms_total")
    package static let viewObjects = Column("view_objects")
    package static let keyOrder = Column("key_order")
    package static let viewMissing = Column("view_missing")
    package static let keptUp = Column("kept_up")
    package static let unexpectedRows = Column("unexpected_rows")
    package static let leakedConnections = Column("leaked_connections")
    package static let backlogMax = Column("backlog_max")
    package static let categories = Column("categories")
    package static let albums = Column("albums")
    package static let payloadBytes = Column("payload_bytes")
    package static let viewContext = Column("view_context")
    package static let config = Column("config")
    package static let allocations = Column("allocations")
    package static let allocatedBytesTotal = Column("allocated_bytes_total")
    package static let sqlInserts = Column("sql_inserts")
    package static let sqlUpdates = Column("sql_updates")
    package static let sqlDeletes = Column("sql_deletes")
    package static let sqlVmSteps = Column("sql_vm_steps")
    package static let instructions = Column("instructions")
    package static let instructionsBy = Column("instructions_by")
    package static let operation = Column("operation")
    package static let fraction = Column("fraction")
    package static let prefillS = Column("prefill_s")
    package static let targets = Column("targets")
    package static let objectsRead = Column("objects_read")
    package static let history = Column("history")
    package static let historyChanges = Column("history_changes")
    package static let historyLagP50Ms = Column("history_lag_p50_ms")
    package static let historyLagP99Ms = Column("history_lag_p99_ms")
    package static let autoMergeMissed = Column("auto_merge_missed")
    package static let command = Column("command")
    package static let saveRetries = Column("save_retries")
    package static let model = Column("model")
    package static let entity = Column("entity")
    package static let key = Column("key")
    package static let relationship = Column("relationship")
    package static let parents = Column("parents")
    package static let stringLength = Column("string_length")
    package static let sqlRows = Column("sql_rows")
    package static let peakObjects = Column("peak_objects")
    package static let cacheSize = Column("cache_size")
    package static let attributeBytes = Column("attribute_bytes")
    package static let map = Column("map")
    package static let addConstraint = Column("add_constraint")
    package static let addIndex = Column("add_index")
    package static let result = Column("result")
    package static let updateRate = Column("update_rate")
    package static let manyToMany = Column("many_to_many")
    package static let members = Column("members")
    package static let parentDuplicates = Column("parent_duplicates")
    package static let objectsInserted = Column("objects_inserted")
    package static let objectsFetched = Column("objects_fetched")
    package static let objectsFaulted = Column("objects_faulted")
    package static let objectsSnapshotted = Column("objects_snapshotted")
    package static let objectsValidated = Column("objects_validated")
    package static let objectsNotified = Column("objects_notified")
    package static let objectsMerged = Column("objects_merged")
    package static let stale = Column("stale")
    package static let verifyS = Column("verify_s")
    package static let verifyVmSteps = Column("verify_vm_steps")
    package static let stop = Column("stop")

    /// Every key above, in file order.
    package static let declared: [Column] = [
        runID,
        startedAt,
        gitRev,
        host,
        cpuModel,
        cores,
        os,
        swiftVersion,
        sqliteVersion,
        allocator,
        strategy,
        dataset,
        rows,
        uniqueKeys,
        dupRate,
        keyDist,
        seed,
        batchSize,
        writers,
        producerLatencyUs,
        store,
        journal,
        synchronous,
        `repeat`,
        repeats,
        status,
        wallS,
        cpuUserS,
        cpuSysS,
        rowsPerS,
        vsLimit,
        peakRssBytes,
        endRssBytes,
        peakHeapBytes,
        sqlStatements,
        sqlSelects,
        saves,
        transactions,
        busyRetries,
        conflicts,
        saveP50Ms,
        saveP99Ms,
        storeRows,
        duplicates,
        lost,
        integrity,
        storeBytes,
        error,
        endHeapBytes,
        badLinks,
        coordinators,
        zipfS,
        input,
        rate,
        latencyP50Ms,
        latencyP99Ms,
        latencyMaxMs,
        mergeMsTotal,
        viewObjects,
        keyOrder,
        viewMissing,
        keptUp,
        unexpectedRows,
        leakedConnections,
        backlogMax,
        categories,
        albums,
        payloadBytes,
        viewContext,
        config,
        allocations,
        allocatedBytesTotal,
        sqlInserts,
        sqlUpdates,
        sqlDeletes,
        sqlVmSteps,
        instructions,
        instructionsBy,
        operation,
        fraction,
        prefillS,
        targets,
        objectsRead,
        history,
        historyChanges,
        historyLagP50Ms,
        historyLagP99Ms,
        autoMergeMissed,
        command,
        saveRetries,
        model,
        entity,
        key,
        relationship,
        parents,
        stringLength,
        sqlRows,
        peakObjects,
        cacheSize,
        attributeBytes,
        map,
        addConstraint,
        addIndex,
        result,
        updateRate,
        manyToMany,
        members,
        parentDuplicates,
        objectsInserted,
        objectsFetched,
        objectsFaulted,
        objectsSnapshotted,
        objectsValidated,
        objectsNotified,
        objectsMerged,
        stale,
        verifyS,
        verifyVmSteps,
        stop,
    ]
}

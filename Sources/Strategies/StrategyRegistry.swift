/// Every strategy loadgen knows, in the order `loadgen list` shows them.
package enum StrategyRegistry {
    /// Every strategy loadgen knows, then those `added` for the current task.
    package static var all: [any WriteStrategy] { builtIn + added }

    /// Strategies registered for the current task and its child tasks, after the built-in ones:
    /// how a test follows DESIGN.md's "add a strategy" without editing `builtIn`
    /// (`StrategyRecipeTests`). A task-local, so no other test sees them.
    @TaskLocal package static var added: [any WriteStrategy] = []

    /// The strategies of the catalogue: adding one is its file and its line here.
    package static let builtIn: [any WriteStrategy] = [
        RawSQLiteStrategy(),
        RawSQLiteUniqueStrategy(),
        BatchStrategy(),
        BatchUpsertStrategy(),
        BatchInsertOnlyStrategy(),
        ContextResetStrategy(),
        ContextNoResetStrategy(),
        ContextSavePerRowStrategy(),
        OneWriterStrategy(),
        ManyWritersStrategy(),
        ManyWritersConstrainedStrategy(),
        NPlusOneStrategy(),
        PrefetchStrategy(),
        FindOrCreateStrategy(),
        FindOrCreatePerRowStrategy(),
        FindOrCreateCachedStrategy(),
        FindOrCreateWritersStrategy(),
        HistoryConsumerStrategy(),
        BatchUpdateStrategy(),
        FetchUpdateStrategy(),
        UpdateByIDStrategy(),
        BatchDeleteStrategy(),
        FetchDeleteStrategy(),
        ReadFaultingStrategy(),
        ReadPrefetchStrategy(),
        ReadBatchedStrategy(),
        ReadPropertiesStrategy(),
        ReadDictionariesStrategy(),
        ReadIDsStrategy(),
        ReadPageStrategy(),
        ReadWithoutValuesStrategy(),
        CountFetchStrategy(),
        CountStrategy(),
    ]

    /// What `run --model M --entity E --key K` runs without `--strategy` (issue 58, item 6): the
    /// single-writer import idioms a team chooses among for its own store, each keeping one row
    /// per key (no limit, no idiom shown for its bug, none whose cost is a known anti-pattern
    /// such as a save per record). On a key without a constraint the store refuses those that
    /// need one and the run names `--add-constraint K` for them.
    package static let modelImportIdioms = [
        BatchStrategy().name, BatchUpsertStrategy().name, ContextResetStrategy().name,
        FindOrCreateStrategy().name, FindOrCreateCachedStrategy().name, FindOrCreatePerRowStrategy().name,
    ]

    /// The strategy named `name`, or nil.
    package static func strategy(named name: String) -> (any WriteStrategy)? {
        all.first { $0.name == name }
    }

    /// Every name, for error messages and help.
    package static var names: [String] { all.map(\.name) }
}

/// Every strategy loadgen knows, in the order `loadgen list` shows them.
package enum StrategyRegistry {
    package static let all: [any WriteStrategy] = [
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

    /// The strategy named `name`, or nil.
    package static func strategy(named name: String) -> (any WriteStrategy)? {
        all.first { $0.name == name }
    }

    /// Every name, for error messages and help.
    package static var names: [String] { all.map(\.name) }
}

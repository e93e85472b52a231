extension RunSummary {
    /// Configurations grouped by their values of some columns, where a blank (a parameter the
    /// strategy does not use) joins every group that has a value there: `batch`, which has no
    /// `--writers`, is ranked beside `one-writer` at writers=1 and at writers=4.
    ///
    /// The groups are the distinct value vectors that no more specific vector covers (one that
    /// agrees on every value the first sets); each configuration joins every group it agrees
    /// with. In the order the configurations came.
    static func groups(_ configurations: [Configuration], by values: (Configuration) -> [String])
        -> [(key: [String], members: [Configuration])]
    {
        let vectors = configurations.map(values)
        var keys: [[String]] = []
        for v in vectors where !keys.contains(v) { keys.append(v) }
        func covers(_ specific: [String], _ general: [String]) -> Bool {
            zip(specific, general).allSatisfy { s, g in g.isEmpty || s == g }
        }
        let kept = keys.filter { k in !keys.contains { other in other != k && covers(other, k) } }
        return kept.map { key in
            (key, configurations.indices.filter { covers(key, vectors[$0]) }.map { configurations[$0] })
        }
    }

    /// The parameter columns (strategy and unique keys aside) that some strategy was measured at
    /// more than one value of, in file order: a sweep. A column whose values differ only because
    /// strategies have different defaults (batch's batch size 5000, context-reset's 1000) is not
    /// one. A switch's blank is its value "off"; another blank is a parameter the strategy does
    /// not use.
    package static func sweptColumns(_ parameters: [ParameterValues], options: ConclusionOptions) -> [Column] {
        ResultRow.parameterColumns.filter { column in
            guard column.isFreeParameter else { return false }
            var values: [String: Set<String>] = [:]
            for p in parameters {
                let value = options.value(column, of: p)
                if !value.isEmpty { values[p.strategy, default: []].insert(value) }
            }
            return values.values.contains { $0.count > 1 }
        }
    }
}

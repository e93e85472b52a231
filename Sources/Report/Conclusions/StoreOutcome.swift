/// What a team needs the store to hold when an import is done, beyond what every strategy must
/// leave (no lost keys, no foreign rows, an intact file: a repetition that breaks those fails).
///
/// Two configurations are compared only where both deliver what the workload needs: a store that
/// keeps duplicated keys is not a faster way of doing the same thing, it is another result.
package enum Requirement: String, Sendable, CaseIterable, Comparable {
    /// One row per key: the data repeats keys, and the app looks records up by them.
    case unique
    /// Every record related to its parent (the relationship role).
    case links
    /// A watching screen (`--view-context`) shows every saved row.
    case screen
    /// A read returns managed objects, not values: a screen that edits what it shows, or follows
    /// later saves, needs objects (`--require objects`; never a workload's default, since a list
    /// that only displays does not). A strategy declares that it cannot deliver it.
    case objects
    /// Each key's rows hold its last copy's values: a feed resends records that changed, and
    /// keeping the first copy loses the update (`--require first-wins` says the app wants the first).
    case current

    /// The `--require` word and how a heading says it.
    package var phrase: String {
        switch self {
        case .unique: return "unique keys"
        case .links: return "every record linked to its parent"
        case .screen: return "a current screen"
        case .objects: return "managed objects"
        case .current: return "each key's last values"
        }
    }

    package static func < (a: Requirement, b: Requirement) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// What a configuration's workload needs, from its parameters: repeated keys in the records
    /// need unique keys, and each key's last values where repeats change them (`--update-rate`
    /// above 0, or an import file, whose repeats are what they are); a relationship role (every
    /// record has a parent, unless `--relationship none`) needs links; `--view-context` needs a
    /// current screen. A need no configuration can miss changes nothing: without repeated keys
    /// there are no duplicates to keep.
    package static func needs(of parameters: ParameterValues) -> Set<Requirement> {
        var needs: Set<Requirement> = []
        guard parameters.operation == "import" else { return needs }
        if parameters.uniqueKeys > 0, parameters.uniqueKeys < parameters.rows {
            needs.insert(.unique)
            if (Double(parameters[.updateRate]) ?? 0) > 0 || !parameters[.input].isEmpty { needs.insert(.current) }
        }
        if parameters.relatesRecords { needs.insert(.links) }
        if parameters.watchedByScreen { needs.insert(.screen) }
        return needs
    }

    /// "unique keys and every record linked to its parent".
    package static func describe(_ needs: Set<Requirement>) -> String {
        let words = needs.sorted().map(\.phrase)
        guard words.count > 1 else { return words.first ?? "nothing beyond every key stored" }
        return words.dropLast().joined(separator: ", ") + " and " + words.last!
    }
}

/// What a configuration's verified stores delivered, over its repetitions that were ok (the
/// worst of them: a store that kept duplicates once can keep them again).
package struct StoreOutcome: Sendable, Equatable {
    /// Rows beyond one per key, at most.
    package let duplicates: Int
    /// Related objects beyond one per key, at most.
    package let parentDuplicates: Int
    /// Records whose related object is missing or wrong, at most.
    package let badLinks: Int
    /// Rows a watching screen did not show, at most (nil: no screen watched).
    package let screenMisses: Int?
    /// Rows holding an older copy's values than their key's last, at most.
    package var stale = 0
    /// Rows the store held (the last ok repetition's), for "3000 of 3000".
    package let storeRows: Int

    /// No store was verified: what a declared shortfall is said against.
    static let unverified = StoreOutcome(duplicates: 0, badLinks: 0, screenMisses: nil, storeRows: 0)

    private init(duplicates: Int, badLinks: Int, screenMisses: Int?, storeRows: Int) {
        self.duplicates = duplicates
        self.parentDuplicates = 0
        self.badLinks = badLinks
        self.screenMisses = screenMisses
        self.storeRows = storeRows
    }

    init?(_ rows: [ResultRow]) {
        let verified = rows.compactMap(\.measurement.verification)
        guard let last = verified.last else { return nil }
        duplicates = verified.map(\.duplicates).max() ?? 0
        parentDuplicates = verified.map(\.parentDuplicates).max() ?? 0
        badLinks = verified.map(\.badLinks).max() ?? 0
        screenMisses = verified.compactMap(\.viewMissing).max()
        // Records split among concurrent producers (p, p + K, …) reach the store in no order: a
        // key's copies in two producers arrive either way round, so no copy is the last an app
        // could know to keep (one-writer left 1 row stale in some runs, 0 in others). Counted in
        // the rows, not held against the run (decision 0041, addendum).
        let concurrent = rows.contains { (Int($0.parameters[.writers]) ?? 1) > 1 }
        stale = concurrent ? 0 : verified.compactMap(\.stale).max() ?? 0
        storeRows = last.storeRows
    }

    /// Whether the stores delivered `requirement`.
    package func delivers(_ requirement: Requirement) -> Bool {
        switch requirement {
        case .unique: return duplicates == 0 && parentDuplicates == 0
        case .links: return badLinks == 0
        case .screen: return (screenMisses ?? 0) == 0
        // Not a property of the store: the strategy declares it (`ConclusionOptions.neverDelivers`).
        case .objects: return true
        case .current: return stale == 0
        }
    }

    /// The needs it fell short of, in order.
    package func shortfalls(of needs: Set<Requirement>) -> [Requirement] {
        needs.sorted().filter { !delivers($0) }
    }

    /// What it failed to deliver, in words: "keeps 300 duplicated keys".
    package func shortfall(_ requirement: Requirement) -> String {
        switch requirement {
        case .unique:
            let related = "\(parentDuplicates) duplicated related object\(parentDuplicates == 1 ? "" : "s")"
            guard duplicates > 0 else { return "keeps \(related)" }
            return "keeps \(duplicates) duplicated key\(duplicates == 1 ? "" : "s")"
                + (parentDuplicates > 0 ? " and \(related)" : "")
        case .links:
            return badLinks >= storeRows
                ? "relates none of its \(storeRows) records to its parent"
                : "leaves \(badLinks) of \(storeRows) records without their parent"
        case .screen:
            return "its screen (--view-context) misses \(screenMisses ?? 0) of \(storeRows) rows"
        case .objects:
            return "returns values (dictionaries), not managed objects"
        case .current:
            return
                "leaves \(stale) row\(stale == 1 ? "" : "s") with an older copy's values than the key's last (the update lost)"
        }
    }
}

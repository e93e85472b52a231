import ObjectGraph
import Report
import Workload

/// One parameter of `loadgen run`, declared once: its option and what it accepts, its default,
/// its help, the CSV columns it fills, whether a comma list sweeps it, and which strategies use
/// it. Parsing, `--help`, the sweep, the child's job and the CSV all read this table
/// (`RunParameter.all`); adding a parameter is a stored property of `RunConfiguration`, an
/// entry here, and its column name appended to `ResultRow.columns`.
package struct RunParameter: Sendable {
    /// The option (`--batch-size`).
    package let flag: String
    /// What its value is called in help (`N`).
    package let valueName: String
    package let help: String
    /// The default, as help shows it.
    package let defaultText: String
    /// True when `--flag a,b,c` runs each value (a sweep axis).
    package let sweeps: Bool
    /// The value of a switch given alone (`--history` is `--history on`); nil for the others.
    package var impliedValue: String? = nil
    /// The CSV columns it fills.
    package let columns: [Column]
    private let render: @Sendable (RunConfiguration) -> [String]
    private let parse: @Sendable (String, inout RunConfiguration) throws(RunParameterError) -> Void
    private let uses: @Sendable (any WriteStrategy, RunConfiguration) -> Bool
    private let unset: @Sendable (inout RunConfiguration) -> Void
    /// What the parameter says (`Scope`): how the run writes, which records, or which model.
    package private(set) var scope: Scope = .run
    /// False for a parameter that means nothing for an update, delete or read, whose store is
    /// filled first with one row per key (`--dup-rate`, `--writers`, …): refused with one.
    package private(set) var onFilledStore = true
    /// See `describingTheTask()`.
    package private(set) var isTask = false
    /// See `shownInSubtitles()`.
    package private(set) var inSubtitles = false
    /// How a results cell becomes this option's value again (see `readBack(_:)`).
    private var cellValue: @Sendable (String) -> String = { $0 }

    /// What a parameter says, which decides where it applies.
    package enum Scope: Sendable, Equatable {
        /// How the run writes (strategy, batch size, writers, store settings).
        case run
        /// Which records are generated: `generate` takes it too, and an import file (`--input`),
        /// which holds its records, refuses it. `needsModel`: only for a team's model.
        case records(needsModel: Bool)
        /// The model and its roles: with `--input` too (the file is read by the model).
        /// `needsModel`: a role of a team's model (`--entity`), not the model itself.
        case model(needsModel: Bool)

        /// Whether it says something about the records (the workload).
        package var isWorkload: Bool { self != .run }
        /// Whether it means something only with `--model`.
        package var needsModel: Bool {
            switch self {
            case .run: return false
            case .records(let needs), .model(let needs): return needs
            }
        }
    }

    /// The parameter, saying `scope`.
    func scoped(_ scope: Scope) -> RunParameter {
        var p = self
        p.scope = scope
        return p
    }

    /// A pragma an app sets with `NSSQLitePragmasOption` (`cache_size`, `mmap_size`, …): one
    /// declaration gives its flag (`--cache-size`), its sweep, its column (named as the pragma,
    /// holding the value as given, negative ones too) and its statement on every connection.
    static func pragma(
        _ column: Column, valueName: String, help: String, defaultText: String,
        range: ClosedRange<Int64>
    ) -> RunParameter {
        let name = column.name
        return RunParameter(
            flag: "--" + name.replacingOccurrences(of: "_", with: "-"), valueName: valueName, help: help,
            defaultText: defaultText, sweeps: true, columns: [column],
            render: { [$0.pragmas[name].map(String.init) ?? ""] },
            parse: { text, c throws(RunParameterError) in
                guard let value = Int64(text.replacingOccurrences(of: "_", with: "")), range.contains(value) else {
                    throw RunParameterError(accepted: "a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                c.pragmas[name] = value
            }, uses: always, unset: { $0.pragmas[name] = nil }
        ).shownInSubtitles()
    }
    /// The parameter, meaning nothing on a filled store.
    func notOnFilledStore() -> RunParameter {
        var p = self
        p.onFilledStore = false
        return p
    }
    /// The parameter, describing the task rather than a way to do it (the operation, whether a
    /// screen watches, how many producers deliver records).
    func describingTheTask() -> RunParameter {
        var p = self
        p.isTask = true
        return p
    }
    /// The parameter, said in a chart's subtitle when every drawn configuration shares its value
    /// (what a reader of the chart must know: the duplicates, the batch size, the durability).
    func shownInSubtitles() -> RunParameter {
        var p = self
        p.inSubtitles = true
        return p
    }

    /// The parameter, whose results cell becomes its option's value through `value` (a key's
    /// `a+b`, written so that a CSV cell needs no quotes, is `--key a,b`).
    func readBack(_ value: @escaping @Sendable (String) -> String) -> RunParameter {
        var p = self
        p.cellValue = value
        return p
    }

    /// The option words that ask for the value a results cell of this parameter holds: none for
    /// a blank cell, or one no value of the option gives (a memory store's `journal` is
    /// `memory`); the flag alone for a switch that is on; else the flag and its value, checked by
    /// parsing it as the command line is.
    package func words(forCell cell: String) -> [String] {
        guard !cell.isEmpty else { return [] }
        if impliedValue != nil, cell == "yes" { return [flag] }
        let value = cellValue(cell)
        var scratch = RunConfiguration()
        guard (try? set(value, in: &scratch)) != nil else { return [] }
        return [flag, value]
    }

    /// Whether the parameter describes the workload (what the records are, and the task) rather
    /// than a choice a team makes (strategy, batch size, store settings): recommendations are
    /// made per value of it, never across its values.
    package var describesWorkload: Bool { scope.isWorkload || isTask }

    /// Sets one value (one element of a list) in `configuration`; throws what is accepted.
    package func set(_ text: String, in configuration: inout RunConfiguration) throws(RunParameterError) {
        try parse(text, &configuration)
    }

    /// The CSV values for `configuration`, one per column ("" when unused).
    package func fields(of configuration: RunConfiguration) -> [String] { render(configuration) }

    /// Whether `strategy` uses this parameter in `configuration` (a sweep multiplies only those).
    package func isUsed(by strategy: any WriteStrategy, in configuration: RunConfiguration) -> Bool {
        uses(strategy, configuration)
    }

    /// Puts the parameter back to its unused value.
    package func clear(in configuration: inout RunConfiguration) { unset(&configuration) }
}

/// A value a parameter does not accept: what it does accept, and the accepted value nearest to
/// it when it looks like a typo, for the message.
package struct RunParameterError: Error, Sendable {
    package let accepted: String
    package var suggestion: String? = nil
}

// MARK: - The table

extension RunParameter {
    /// The most records a run may ask for.
    package static let maxRows = 1_000_000_000

    /// Every parameter, in the order `--help` lists them.
    package static let all: [RunParameter] = [
        RunParameter(
            flag: "--strategy", valueName: "NAME[,NAME…]|all[,-NAME…]",
            help: "strategies to run (see 'loadgen list'); all,-NAME leaves NAME out",
            defaultText: "batch", sweeps: true, columns: [.strategy], render: { [$0.strategy] },
            parse: { text, c throws(RunParameterError) in
                guard StrategyRegistry.strategy(named: text) != nil else {
                    throw RunParameterError(
                        accepted: "one of \(StrategyRegistry.names.joined(separator: "|")), or all "
                            + "(all,-NAME leaves NAME out)",
                        suggestion: Nearest.word(to: text, in: StrategyRegistry.names + ["all"]))
                }
                c.strategy = text
            }, uses: always, unset: { _ in }),
        RunParameter(
            flag: "--operation", valueName: "import|update|delete|read",
            help: "what is measured: an import, or an update, delete or read of a store filled first",
            defaultText: "import", sweeps: true, columns: [.operation], render: { [$0.operation.rawValue] },
            parse: { text, c throws(RunParameterError) in
                c.operation = try choice(text, Operation.self)
                if c.operation.needsFilledStore, c.fraction == nil { c.fraction = 0.1 }
            }, uses: always, unset: { _ in }
        ).describingTheTask(),
        RunParameter(
            flag: "--fraction", valueName: "F", help: "share of the records an update or delete targets, 0 < F ≤ 1",
            defaultText: "0.1", sweeps: true, columns: [.fraction],
            render: { [$0.fraction.map { Format.share($0) } ?? ""] },
            parse: { text, c throws(RunParameterError) in
                let f = try number(text, 0...1, "a share above 0, up to 1")
                guard f > 0 else { throw RunParameterError(accepted: "a share above 0, up to 1") }
                c.fraction = f
            }, uses: { s, _ in s.operation == .update || s.operation == .delete }, unset: { $0.fraction = nil }
        )
        .describingTheTask().shownInSubtitles(),
        RunParameter(
            flag: "--dataset", valueName: "expenses|photos", help: "what the records look like (a built-in model)",
            defaultText: "expenses", sweeps: true, columns: [.dataset],
            render: { [$0.model.path == nil ? $0.workload.dataset.rawValue : ""] },
            parse: { text, c throws(RunParameterError) in c.workload.dataset = try choice(text, Dataset.self) },
            uses: always, unset: { _ in }
        ).scoped(.records(needsModel: false)),
        RunParameter(
            flag: "--model", valueName: "PATH",
            help:
                "a team's own Core Data model (.xcdatamodeld, .xcdatamodel or its contents file) instead of a dataset",
            defaultText: "none: --dataset's", sweeps: false, columns: [.model], render: { [$0.model.path ?? ""] },
            parse: { text, c throws(RunParameterError) in
                guard !text.isEmpty else { throw RunParameterError(accepted: "a model path") }
                c.model.path = text
                c.workload.usesModel = true
            }, uses: always, unset: { _ in }
        ).scoped(.model(needsModel: false)),
        RunParameter(
            flag: "--entity", valueName: "NAME", help: "with --model: the entity records become",
            defaultText: "found from the model", sweeps: false, columns: [.entity],
            render: { [$0.model.entity ?? ""] },
            parse: { text, c throws(RunParameterError) in
                guard !text.isEmpty else { throw RunParameterError(accepted: "an entity name") }
                c.model.entity = text
            }, uses: always, unset: { _ in }
        ).scoped(.model(needsModel: true)),
        RunParameter(
            flag: "--key", valueName: "ATTRIBUTE[,ATTRIBUTE]", help: "with --model: the attributes that key a record",
            defaultText: "its uniqueness constraint", sweeps: false, columns: [.key],
            render: { [$0.model.key?.joined(separator: "+") ?? ""] },
            parse: { text, c throws(RunParameterError) in
                let names = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard !names.contains(where: \.isEmpty), Set(names).count == names.count else {
                    throw RunParameterError(accepted: "attribute names, comma-separated, each once")
                }
                c.model.key = names
            }, uses: always, unset: { _ in }
        ).scoped(.model(needsModel: true))
            .readBack { $0.replacingOccurrences(of: "+", with: ",") },
        RunParameter(
            flag: "--relationship", valueName: "NAME[:ENTITY][.KEY]|none",
            help: "with --model: the to-one a find-or-create resolves (the concrete entity related objects are "
                + "created as, and the attribute they are found by)",
            defaultText: "the entity's only to-one",
            sweeps: false, columns: [.relationship], render: { [$0.model.relationship ?? ""] },
            parse: { text, c throws(RunParameterError) in
                // NAME, NAME:ENTITY, NAME.KEY or NAME:ENTITY.KEY, no part empty (`app.` names no key).
                let path = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
                let head = path[0].split(separator: ":", omittingEmptySubsequences: false)
                guard !(path + head).contains(where: \.isEmpty), head.count <= 2 else {
                    throw RunParameterError(
                        accepted: "NAME, NAME:ENTITY, NAME.KEY or NAME:ENTITY.KEY with no part empty, or none")
                }
                c.model.relationship = text
            }, uses: always, unset: { _ in }
        ).scoped(.model(needsModel: true)),
        RunParameter(
            flag: "--rows", valueName: "N", help: "records to write (100000, 100k, 1M)",
            defaultText: "100000", sweeps: true, columns: [.rows], render: { [String($0.workload.rows)] },
            parse: { text, c throws(RunParameterError) in c.workload.rows = try integer(text, 1...maxRows) },
            uses: always, unset: { _ in }
        ).scoped(.records(needsModel: false)),
        RunParameter(
            flag: "--seed", valueName: "N", help: "generator seed: same seed, same records",
            defaultText: "1", sweeps: true, columns: [.seed], render: { [String($0.workload.seed)] },
            parse: { text, c throws(RunParameterError) in c.workload.seed = UInt64(try integer(text, 0...Int.max)) },
            uses: always, unset: { _ in }
        ).scoped(.records(needsModel: false)),
        RunParameter(
            flag: "--dup-rate", valueName: "R", help: "share of records repeating an earlier key, 0 ≤ R < 1",
            defaultText: "0", sweeps: true, columns: [.dupRate],
            render: { [$0.input == nil ? Format.share($0.workload.dupRate) : Format.fixed($0.effectiveDupRate, 4)] },
            parse: { text, c throws(RunParameterError) in
                c.workload.dupRate = try number(text, 0...1, upperOpen: true, "a share from 0 up to (not including) 1")
            }, uses: always, unset: { _ in }
        ).scoped(.records(needsModel: false)).notOnFilledStore().shownInSubtitles(),
        RunParameter(
            flag: "--update-rate", valueName: "R",
            help: "share of the repeats that carry new values for the record's other attributes (a feed resending a "
                + "record that changed; the rest are exact copies, as a retried page), 0 ≤ R ≤ 1: the verifier counts "
                + "rows left with an older copy's values (stale)",
            defaultText:
                "\(Format.share(WorkloadSpec.defaultUpdateRate)): a feed repeats a record because it changed or "
                + "because a page or request was sent again, and no measurement says which is commoner",
            sweeps: true, columns: [.updateRate],
            render: { [$0.input == nil && $0.workload.dupRate > 0 ? Format.share($0.workload.updateRate) : ""] },
            parse: { text, c throws(RunParameterError) in
                c.workload.updateRate = try number(text, 0...1, "a share from 0 to 1")
            }, uses: { _, c in c.input == nil && c.workload.dupRate > 0 },
            unset: { $0.workload.updateRate = WorkloadSpec.defaultUpdateRate }
        )
        .scoped(.records(needsModel: false)).notOnFilledStore(),
        RunParameter(
            flag: "--key-dist", valueName: "uniform|zipf", help: "which earlier keys repeat",
            defaultText: "uniform", sweeps: true, columns: [.keyDist],
            render: { [$0.input == nil ? $0.workload.keyDistribution.name : "file"] },
            parse: { text, c throws(RunParameterError) in
                switch text {
                case "uniform": c.workload.keyDistribution = .uniform
                case "zipf":
                    if case .zipf = c.workload.keyDistribution {} else { c.workload.keyDistribution = .zipf(s: 1.1) }
                default: throw RunParameterError(accepted: "one of uniform|zipf")
                }
            }, uses: always, unset: { _ in }
        ).scoped(.records(needsModel: false)).notOnFilledStore(),
        RunParameter(
            flag: "--zipf-s", valueName: "S", help: "zipf exponent (with --key-dist zipf), 0.01 to 10",
            defaultText: "1.1", sweeps: true, columns: [.zipfS],
            render: { c in
                guard c.input == nil, case .zipf(let s) = c.workload.keyDistribution else { return [""] }
                return [Format.fixed(s, 3)]
            },
            parse: { text, c throws(RunParameterError) in
                let s = try number(text, 0.01...10, "an exponent from 0.01 to 10")
                if case .zipf = c.workload.keyDistribution { c.workload.keyDistribution = .zipf(s: s) }
            }, uses: always, unset: { _ in }
        ).scoped(.records(needsModel: false)).notOnFilledStore(),
        RunParameter(
            flag: "--key-order", valueName: "ascending|random",
            help: "order new keys arrive in (IDs that grow, or UUIDv4-like)", defaultText: "ascending", sweeps: true,
            columns: [.keyOrder], render: { [$0.input == nil ? $0.workload.keyOrder.rawValue : ""] },
            parse: { text, c throws(RunParameterError) in c.workload.keyOrder = try choice(text, KeyOrder.self) },
            uses: always, unset: { _ in }
        ).scoped(.records(needsModel: false)).notOnFilledStore(),
        generatedSize(
            flag: "--categories", valueName: "N", help: "categories in the expenses dataset", defaultText: "50",
            column: .categories, applies: { $0.model.path == nil && $0.workload.dataset == .expenses },
            value: { String($0.workload.categories) },
            parse: { text, c throws(RunParameterError) in c.workload.categories = try integer(text, 1...1_000_000) },
            reset: { $0.workload.categories = 50 }
        ).shownInSubtitles(),   // the list screen's workload (issue 44, item 3)
        generatedSize(
            flag: "--albums", valueName: "N", help: "albums in the photos dataset", defaultText: "20",
            column: .albums, applies: { $0.model.path == nil && $0.workload.dataset == .photos },
            value: { String($0.workload.albums) },
            parse: { text, c throws(RunParameterError) in c.workload.albums = try integer(text, 1...1_000_000) },
            reset: { $0.workload.albums = 20 }),
        generatedSize(
            flag: "--parents", valueName: "N", help: "with --model: related objects records are spread over",
            defaultText: "50", column: .parents, applies: { $0.model.path != nil },
            value: { String($0.workload.modelParents) },
            parse: { text, c throws(RunParameterError) in c.workload.modelParents = try integer(text, 1...1_000_000) },
            reset: { $0.workload.modelParents = 50 }
        ).scoped(.records(needsModel: true)),
        generatedSize(
            flag: "--payload-bytes", valueName: "N",
            help:
                "size of each generated binary value (photos' imageData; a model's Binary attributes and "
                + "Transformables of an app's own class)",
            defaultText: "4096", column: .payloadBytes,
            applies: { $0.model.path != nil || $0.workload.dataset == .photos },
            value: { String($0.workload.payloadBytes) },
            parse: { text, c throws(RunParameterError) in c.workload.payloadBytes = try integer(text, 0...16_000_000) },
            reset: { $0.workload.payloadBytes = 4096 }),
        RunParameter(
            flag: "--many-to-many", valueName: "NAME[.KEY]|none",
            help: "with --model: a many-to-many each record relates --members objects through (its tags), "
                + "found or created by their key, the pairs in its join table",
            defaultText: "none", sweeps: false, columns: [.manyToMany], render: { [$0.model.manyToMany ?? ""] },
            parse: { text, c throws(RunParameterError) in
                guard !text.isEmpty else { throw RunParameterError(accepted: "a many-to-many's name, or none") }
                // One per run: a list would read as one name whose key is the rest.
                guard !text.contains(",") else {
                    throw RunParameterError(
                        accepted: "one many-to-many (NAME or NAME.KEY): a run relates its records through "
                            + "one; give each its own run, or its own line of a --suite")
                }
                c.model.manyToMany = text == "none" ? nil : text
            }, uses: always, unset: { $0.model.manyToMany = nil }
        ).scoped(.model(needsModel: true)),
        RunParameter(
            flag: "--members", valueName: "N", help: "with --many-to-many: objects each record relates to through it",
            defaultText: "3", sweeps: true, columns: [.members],
            render: { [$0.model.manyToMany == nil || $0.input != nil ? "" : String($0.workload.members)] },
            parse: { text, c throws(RunParameterError) in c.workload.members = try integer(text, 0...1_000) },
            uses: { _, c in c.model.manyToMany != nil }, unset: { $0.workload.members = 3 }
        ).scoped(.records(needsModel: true)),
        RunParameter(
            flag: "--add-constraint", valueName: "none|ATTRIBUTE[+ATTRIBUTE]",
            help: "lay the store out as if the records' entity had this uniqueness constraint (the what-if of adding "
                + "one), for every strategy of the run: the constraint idioms run beside find-or-create; a sweep "
                + "compares (none,itemID)",
            defaultText: "none: the model as it is", sweeps: true, columns: [.addConstraint],
            render: { [$0.model.addedConstraint?.joined(separator: "+") ?? ""] },
            parse: { text, c throws(RunParameterError) in
                guard text != "none" else {
                    c.model.addedConstraint = nil
                    return
                }
                let names = text.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
                guard !names.contains(where: \.isEmpty), Set(names).count == names.count else {
                    throw RunParameterError(accepted: "none, or attribute names joined by + (itemID, siteID+orderID)")
                }
                c.model.addedConstraint = names
            }, uses: always, unset: { $0.model.addedConstraint = nil }),
        RunParameter(
            flag: "--add-index", valueName: "none|[ENTITY.]ATTRIBUTE[+ATTRIBUTE]",
            help: "lay the store out as if the model had this index (on the records' entity, or ENTITY's: "
                + "Order.orderID): the what-if of adding one where lookups scan; a sweep compares (none,itemID)",
            defaultText: "none: the model as it is", sweeps: true, columns: [.addIndex],
            render: { [$0.model.addedIndex?.text ?? ""] },
            parse: { text, c throws(RunParameterError) in
                guard text != "none" else {
                    c.model.addedIndex = nil
                    return
                }
                guard let index = AddedIndex(text) else {
                    throw RunParameterError(
                        accepted: "none, or attribute names joined by + (itemID, siteID+orderID), "
                            + "after ENTITY. for another entity than the records' (Order.orderID)")
                }
                c.model.addedIndex = index
            }, uses: always, unset: { $0.model.addedIndex = nil }),
        RunParameter(
            flag: "--map", valueName: "PROPERTY=MEMBER[,…]",
            help: "with --model: the import file's member for a property (Entity.property or property; "
                + "over its mappedKeyName): itemID=id reads itemID from \"id\"; a key path reads it from an object "
                + "the record holds, at any depth (code=properties.code, as GeoJSON nests it); :ms or :s after a date's member says "
                + "the unit of a number (time=properties.time:ms)",
            defaultText: "each property's mappedKeyName, else its name (product_id also fills productID)",
            sweeps: false, columns: [.map],
            render: { c in
                [c.model.members.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "+")]
            },
            parse: { text, c throws(RunParameterError) in
                var members: [String: String] = [:]
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                    guard pair.count == 2, !pair[0].isEmpty, !pair[1].isEmpty, !pair[1].contains("+") else {
                        throw RunParameterError(
                            accepted: "PROPERTY=MEMBER pairs, comma-separated (itemID=id,Order.orderID=id)")
                    }
                    members[pair[0]] = pair[1]
                }
                c.model.members = members
            }, uses: always, unset: { $0.model.members = [:] }
        ).scoped(.model(needsModel: true))
            .readBack { $0.replacingOccurrences(of: "+", with: ",") },
        RunParameter(
            flag: "--attribute-bytes", valueName: "ATTRIBUTE=N[,…]",
            help: "with --model: the size of one Binary or Transformable attribute's generated values "
                + "(Entity.attribute or attribute; over --payload-bytes and the model's user info)",
            defaultText:
                "--payload-bytes, or 16 for an indexed Binary attribute (an identifier), or for a Transformable of "
                + "a Foundation class ([Int64], [String], …) its archive's size",
            sweeps: false, columns: [.attributeBytes],
            render: { c in
                [
                    c.input == nil
                        ? c.workload.attributeBytes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                            .joined(separator: "+") : ""
                ]
            },
            parse: { text, c throws(RunParameterError) in
                var sizes: [String: Int] = [:]
                for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                    let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
                    guard pair.count == 2, !pair[0].isEmpty, let n = Int(pair[1]), (0...16_000_000).contains(n) else {
                        throw RunParameterError(
                            accepted: "ATTRIBUTE=BYTES pairs, comma-separated (imageData=65536,Team.token=16)")
                    }
                    sizes[pair[0]] = n
                }
                c.workload.attributeBytes = sizes
            }, uses: always, unset: { $0.workload.attributeBytes = [:] }
        ).scoped(.records(needsModel: true))
            .readBack { $0.replacingOccurrences(of: "+", with: ",") },
        generatedSize(
            flag: "--string-length", valueName: "MIN-MAX",
            help: "with --model: bytes of each generated string the model does not bound (its Min/Max Length do)",
            defaultText: "8-32", column: .stringLength, applies: { $0.model.path != nil },
            value: { "\($0.workload.stringLength.lowerBound)-\($0.workload.stringLength.upperBound)" },
            parse: { text, c throws(RunParameterError) in
                let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { Int($0) }
                guard parts.count == 2, let low = parts[0], let high = parts[1], 0 <= low, low <= high,
                    high <= 1_000_000
                else {
                    throw RunParameterError(accepted: "lengths MIN-MAX in bytes, 0 ≤ MIN ≤ MAX ≤ 1000000 (8-32)")
                }
                c.workload.stringLength = low...high
            }, reset: { $0.workload.stringLength = 8...32 }
        ).scoped(.records(needsModel: true)),
        RunParameter(
            flag: "--batch-size", valueName: "N", help: "records per save or transaction",
            defaultText: "per strategy, see 'loadgen list'", sweeps: true, columns: [.batchSize],
            render: { c in [(c.batchSize ?? c.writeStrategy?.defaultBatchSize).map(String.init) ?? ""] },
            parse: { text, c throws(RunParameterError) in c.batchSize = try integer(text, 1...maxRows) },
            uses: { s, _ in s.defaultBatchSize != nil }, unset: { $0.batchSize = nil }
        ).shownInSubtitles(),
        RunParameter(
            flag: "--writers", valueName: "K", help: "concurrent producers for writer strategies",
            defaultText: "1", sweeps: true, columns: [.writers], render: { [$0.writers.map(String.init) ?? ""] },
            parse: { text, c throws(RunParameterError) in c.writers = try integer(text, 1...256) },
            uses: { s, _ in s.usesWriters }, unset: { $0.writers = nil }
        ).notOnFilledStore().describingTheTask().shownInSubtitles(),
        RunParameter(
            flag: "--producer-latency", valueName: "US", help: "simulated fetch time per record in µs",
            defaultText: "0", sweeps: true, columns: [.producerLatencyUs],
            render: { [$0.producerLatencyMicroseconds.map(String.init) ?? ""] },
            parse: { text, c throws(RunParameterError) in
                c.producerLatencyMicroseconds = try integer(text, 0...10_000_000)
            },
            uses: { s, _ in s.usesWriters }, unset: { $0.producerLatencyMicroseconds = nil }
        ).notOnFilledStore(),
        RunParameter(
            flag: "--coordinators", valueName: "shared|per-writer",
            help: "writer contexts share one coordinator, or one each", defaultText: "shared", sweeps: true,
            columns: [.coordinators], render: { [$0.coordinators?.rawValue ?? ""] },
            parse: { text, c throws(RunParameterError) in c.coordinators = try choice(text, CoordinatorMode.self) },
            uses: { s, _ in s.usesCoordinators }, unset: { $0.coordinators = nil }
        ).notOnFilledStore(),
        RunParameter(
            flag: "--synchronous", valueName: "normal|full|off",
            help: "PRAGMA synchronous of a file store (Core Data leaves FULL; NORMAL predicts a device better here)",
            defaultText: StoreOptions.Synchronous.runDefault.rawValue, sweeps: true, columns: [.synchronous],
            render: { [$0.synchronous?.rawValue ?? ""] },
            parse: { text, c throws(RunParameterError) in
                c.synchronous = try choice(text, StoreOptions.Synchronous.self)
            },
            uses: { _, c in c.storeKind == .file }, unset: { $0.synchronous = nil }
        ).shownInSubtitles(),
        .pragma(
            .cacheSize, valueName: "N",
            help: "PRAGMA cache_size on every connection (NSSQLitePragmasOption): pages, or KiB "
                + "when negative", defaultText: "SQLite's (-2000: 2 MiB)", range: -1_000_000_000...1_000_000_000),
        RunParameter(
            flag: "--journal", valueName: "wal|delete", help: "journal mode of a file store",
            defaultText: "wal", sweeps: true, columns: [.journal],
            render: { [$0.journal?.rawValue ?? ($0.storeKind == .memory ? "memory" : "")] },
            parse: { text, c throws(RunParameterError) in c.journal = try choice(text, StoreOptions.Journal.self) },
            uses: { _, c in c.storeKind == .file }, unset: { $0.journal = nil }
        ).shownInSubtitles(),
        RunParameter(
            flag: "--view-context", valueName: "off|on|list:N|controller:N",
            help: "the same screen in front of every strategy: the records sorted by key in the view context, kept "
                + "current by merging saves (automaticallyMergesChangesFromParent) and batch requests' IDs; on: a "
                + "results controller over every record; controller:N over the first N; list:N holds N objects without "
                + "a controller (alone: on; reads are the screen themselves)",
            defaultText: "off", sweeps: true, impliedValue: "on", columns: [.viewContext],
            render: { [$0.screen?.cell ?? ""] },
            parse: { text, c throws(RunParameterError) in c.screen = try ScreenKind.parse(text) },
            uses: { s, _ in s.operation != .read && !s.isLimit }, unset: { $0.screen = nil }
        )
        .describingTheTask().readBack(ScreenKind.option(forCell:)),
        RunParameter(
            flag: "--result", valueName: "status|count|ids",
            help: "what batch insert, update and delete requests return (resultType): their status, a count, or the "
                + "object IDs, captured at a cost; IDs are asked for whatever this says where a screen or a batch "
                + "insert's relationship fix-up needs them (the run says so)",
            // not a results column: a --result value
            defaultText: "status", sweeps: true, columns: [.result], render: { [$0.batchResult?.rawValue ?? ""] },
            parse: { text, c throws(RunParameterError) in c.batchResult = try choice(text, BatchResultType.self) },
            uses: { s, _ in s.issuesBatchRequests }, unset: { $0.batchResult = nil }),
        RunParameter(
            flag: "--history", valueName: "off|on",
            help:
                "record persistent history (NSPersistentHistoryTrackingKey) with every save and batch request (alone: on)",
            defaultText: "off", sweeps: true, impliedValue: "on", columns: [.history],
            render: { [$0.history ? "yes" : ""] },
            parse: { text, c throws(RunParameterError) in c.history = try onOff(text) },
            uses: { s, _ in !s.isLimit }, unset: { $0.history = false }
        ).describingTheTask(),
        RunParameter(
            flag: "--rate", valueName: "R",
            help: "open loop: deliver R records/s on a fixed schedule and measure latency to commit",
            defaultText: "none: as fast as taken", sweeps: true, columns: [.rate],
            render: { [$0.rate.map { Format.fixed($0, 1) } ?? ""] },
            parse: { text, c throws(RunParameterError) in
                c.rate = try number(text, 1...10_000_000, "records per second, from 1 to 10000000")
            }, uses: { s, _ in s.operation == .import }, unset: { $0.rate = nil }
        ).notOnFilledStore()
            .shownInSubtitles(),   // a rate capped by the offered one is not the engine's speed
    ]

    /// A size or count of generated records that only some records have (the expenses'
    /// categories, a model's string lengths): used by every strategy when `applies`, and shown
    /// blank where it does not, or with an import file, whose records are what they are. One
    /// condition decides both, so the column and the sweep cannot disagree.
    static func generatedSize(
        flag: String, valueName: String, help: String, defaultText: String, column: Column,
        applies: @escaping @Sendable (RunConfiguration) -> Bool,
        value: @escaping @Sendable (RunConfiguration) -> String,
        parse: @escaping @Sendable (String, inout RunConfiguration) throws(RunParameterError) -> Void,
        reset: @escaping @Sendable (inout RunConfiguration) -> Void
    ) -> RunParameter {
        RunParameter(
            flag: flag, valueName: valueName, help: help, defaultText: defaultText, sweeps: true, columns: [column],
            render: { [$0.input == nil && applies($0) ? value($0) : ""] }, parse: parse,
            uses: { _, c in applies(c) }, unset: reset
        ).scoped(.records(needsModel: false))
    }

    /// The parameter of `flag`, if it is one.
    package static func named(_ flag: String) -> RunParameter? { all.first { $0.flag == flag } }

    /// The parameters that name a team's model and its roles (they apply with `--input` too).
    package static let modelFlags: Set<String> = Set(
        all.filter { if case .model = $0.scope { true } else { false } }.map(\.flag))

    /// The workload's parameters (what `generate` takes too).
    package static let workloadFlags: Set<String> = Set(all.filter(\.scope.isWorkload).map(\.flag))
}

// MARK: - Reading values

private let always: @Sendable (any WriteStrategy, RunConfiguration) -> Bool = { _, _ in true }

/// A whole number in `range`; accepts 100000, 100_000, 100k, 1M.
func integer(_ text: String, _ range: ClosedRange<Int>) throws(RunParameterError) -> Int {
    guard let value = RunParameter.parseInteger(text), range.contains(value) else {
        throw RunParameterError(accepted: "a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
}

func number(
    _ text: String, _ range: ClosedRange<Double>, upperOpen: Bool = false,
    _ accepted: String
) throws(RunParameterError) -> Double {
    guard let value = Double(text), value.isFinite, range.contains(value), !(upperOpen && value == range.upperBound)
    else {
        throw RunParameterError(accepted: accepted)
    }
    return value
}

/// A switch: on or off (yes/no, true/false as well).
package func onOffValue(_ text: String) throws(RunParameterError) -> Bool { try onOff(text) }

func onOff(_ text: String) throws(RunParameterError) -> Bool {
    switch text.lowercased() {
    case "on", "yes", "true": return true
    case "off", "no", "false": return false
    default: throw RunParameterError(accepted: "on or off", suggestion: Nearest.word(to: text, in: ["on", "off"]))
    }
}

func choice<T: RawRepresentable & CaseIterable>(_ text: String, _ type: T.Type) throws(RunParameterError) -> T
where T.RawValue == String {
    guard let value = T(rawValue: text) else {
        let names = T.allCases.map(\.rawValue)
        throw RunParameterError(
            accepted: "one of " + names.joined(separator: "|"), suggestion: Nearest.word(to: text, in: names))
    }
    return value
}

extension RunParameter {
    /// Accepts 100000, 100_000, 100k, 1M (what people type for row counts).
    package static func parseInteger(_ text: String) -> Int? {
        var t = text.replacingOccurrences(of: "_", with: "").lowercased()
        var scale = 1
        if t.hasSuffix("k") {
            scale = 1_000
            t.removeLast()
        } else if t.hasSuffix("m") {
            scale = 1_000_000
            t.removeLast()
        }
        guard let v = Int(t) else { return nil }
        let (r, overflow) = v.multipliedReportingOverflow(by: scale)
        return overflow ? nil : r
    }
}

// MARK: - Configurations in CSV

extension RunConfiguration {
    /// Every parameter column's value, by column name: the table's columns plus what is derived
    /// from them (`unique_keys`, `store`, `input`).
    package var csvFields: [String: String] {
        var fields: [String: String] = [:]
        for parameter in RunParameter.all {
            for (column, value) in zip(parameter.columns, parameter.fields(of: self)) { fields[column.name] = value }
        }
        fields[Column.uniqueKeys.name] = String(uniqueKeys)
        fields[Column.store.name] = storeKind.rawValue
        fields[Column.input.name] = input ?? ""
        return fields
    }

    /// The `run` options that make the configuration whose parameter columns are `fields` again
    /// (what a bisect line runs): the inverse of `csvFields`, through the table. A run that read
    /// an import file gives `--input` instead of the generated records' options, which it refuses.
    package static func arguments(fromCSV fields: [String: String]) -> [String] {
        let input = fields[Column.input.name] ?? ""
        var words: [String] = []
        for parameter in RunParameter.all where parameter.columns.count == 1 {
            if !input.isEmpty, case .records = parameter.scope { continue }
            words += parameter.words(forCell: fields[parameter.columns[0].name] ?? "")
        }
        if !input.isEmpty { words += ["--input", input] }
        if fields[Column.store.name] == StoreKind.memory.rawValue { words += ["--store", StoreKind.memory.rawValue] }
        return words
    }

    /// The store in memory (`--store memory`): no journal and no durability apply there.
    package mutating func keepStoreInMemory() {
        storeKind = .memory
        journal = nil
        synchronous = nil
    }

    /// Resets every parameter `strategy` does not use, so that points differing only there
    /// are one configuration.
    package mutating func clearUnused() {
        guard let strategy = writeStrategy else { return }
        for parameter in RunParameter.all where !parameter.isUsed(by: strategy, in: self) { parameter.clear(in: &self) }
        // A history consumer always records history, whatever --history says: its rows say so.
        // (A limit, SQLite alone, never can: the table clears it there.)
        if strategy.requiresHistory { history = true }
    }
}

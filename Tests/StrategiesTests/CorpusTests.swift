import Foundation
import ObjectGraph
import Report
import SQLiteKit
import Testing
import Workload

@testable import Strategies

/// Shipping apps' models, as their repositories hold them (Tests/Corpus, each with its source and
/// licence): every strategy the roles allow runs on each entity at a small size and leaves a
/// verified store, what the model cannot serve is refused by name, a generated file reads back as
/// the same records, and the store has the tables, columns and indexes the layout describes.
/// Serialized: each case runs every strategy synchronously, and on a two-core runner parallel
/// cases would hold every thread of the pool that the async tests of other suites wait for.
@Suite(.serialized) struct CorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Corpus").standardized.path

    /// One entity of one model as a team would run it: the flags it needs, and the strategies the
    /// run refuses with the reason's start.
    struct Case: CustomTestStringConvertible, Sendable {
        var model: String
        var entity: String
        var key: [String]? = nil
        var relationship: String? = nil
        /// Share of repeated records (none for an entity without a key: nothing repeats).
        var dupRate = 0.1
        /// Refused strategies by the start of their reason.
        var refused: [String: String] = [:]
        var testDescription: String { "\(model) \(entity)" + (relationship.map { " --relationship \($0)" } ?? "") }
    }

    static let needsUnique = "needs a uniqueness constraint"
    static let needsRelated = "resolves related objects"
    static let needsKey = "needs a key to find records by"
    /// A delete rule Core Data's batch delete cannot carry out (a Deny, 134060).
    static let batchDeleteRefused = ["batch-delete": "Core Data refuses NSBatchDeleteRequest here"]
    /// An entity without a key runs the idioms that only insert.
    static let keyless = refusing(
        StrategyRegistry.names.filter { !["raw-sqlite", "batch-insert-only"].contains($0) }, needsKey)
    /// Updates and deletes select their targets by a date or number attribute.
    static let noTarget = refusing(
        StrategyRegistry.names.filter { StrategyRegistry.strategy(named: $0)!.operation == .update }, "cannot update"
    )
    .merging(
        refusing(
            StrategyRegistry.names.filter { StrategyRegistry.strategy(named: $0)!.operation == .delete },
            "cannot delete")
    ) { a, _ in a }
    static let uniqueStrategies = StrategyRegistry.names.filter {
        StrategyRegistry.strategy(named: $0)!.keyNeed == .uniqueness
    }
    static let relatedStrategies = StrategyRegistry.names.filter {
        StrategyRegistry.strategy(named: $0)!.resolvesRelatedObjects
    }
    static func refusing(_ names: [String], _ reason: String) -> [String: String] {
        Dictionary(names.map { ($0, reason) }, uniquingKeysWith: { first, _ in first })
    }

    static let cases: [Case] = [
        // The offline reader: a one-to-one both ways, a many-to-one by a UUID key, Xcode's "0.0"
        // Boolean default, required to-manys without a minimum.
        Case(model: "kiwix-apple/DataModel.xcdatamodel", entity: "ZimFile"),
        Case(model: "kiwix-apple/DataModel.xcdatamodel", entity: "DownloadTask"),
        Case(model: "kiwix-apple/DataModel.xcdatamodel", entity: "Bookmark"),
        // A history of tabs: no constraint, a key named, nothing deduplicated.
        Case(
            model: "kiwix-apple/DataModel.xcdatamodel", entity: "Tab", key: ["title"],
            refused: refusing(uniqueStrategies, needsUnique).merging(noTarget.filter { $0.value == "cannot update" }) {
                a, _ in a
            }),
        // The same history with no key at all: only inserted, told apart by nothing.
        Case(model: "kiwix-apple/DataModel.xcdatamodel", entity: "Tab", dupRate: 0, refused: keyless),
        // The notifications store: a key of two attributes with a Max Length and a regular
        // expression; a ranged Integer 16 with a default.
        Case(
            model: "ntfy-ios/Model.xcdatamodel", entity: "Subscription",
            refused: refusing(relatedStrategies, needsRelated).merging(noTarget) { related, _ in related }),
        // A notification arrives into its subscription, found by server and topic together.
        Case(model: "ntfy-ios/Model.xcdatamodel", entity: "Notification"),
        Case(
            model: "ntfy-ios/Model.xcdatamodel", entity: "User",
            refused: refusing(relatedStrategies, needsRelated).merging(noTarget) { related, _ in related }),
        // The app store: a key of two attributes one of which is also `source` + `Identifier`
        // (the relationship's member nests), Decimal and Transformable attributes, four to-ones.
        Case(model: "AltStore/AltStore 17.xcdatamodel", entity: "StoreApp", relationship: "source"),
        Case(model: "AltStore/AltStore 17.xcdatamodel", entity: "NewsItem", relationship: "source"),
        // An app's versions, permissions and screenshots, each related to its app found by source
        // and bundle identifier together; the installed app is a one-to-one found so.
        Case(model: "AltStore/AltStore 17.xcdatamodel", entity: "AppVersion", relationship: "app"),
        Case(
            model: "AltStore/AltStore 17.xcdatamodel", entity: "AppPermission", relationship: "app", refused: noTarget),
        Case(
            model: "AltStore/AltStore 17.xcdatamodel", entity: "AppScreenshot", relationship: "app",
            refused: noTarget.filter { $0.value == "cannot update" }),
        Case(model: "AltStore/AltStore 17.xcdatamodel", entity: "InstalledApp", relationship: "storeApp"),
        // The browser's bookmarks and folders: one table for the hierarchy (a folder and a
        // bookmark are sub-entities of an abstract item), the bookmark's position in its folder's
        // ordered children; no constraint, so only the idioms that need none.
        Case(
            model: "duckduckgo-ios/BookmarksAndFolders.xcdatamodel", entity: "BookmarkManagedObject", key: ["title"],
            relationship: "parent.title",
            refused: refusing(uniqueStrategies, needsUnique).merging(noTarget) { unique, _ in unique }),
        // The social app: statuses by their author, found by id (no constraint: only the idioms
        // that need none), many-to-manys laid out as join tables, to-ones to the same entity.
        Case(
            model: "mastodon-ios/CoreData 9.xcdatamodel", entity: "Status", key: ["id"], relationship: "author.id",
            refused: refusing(uniqueStrategies, needsUnique)),
        // Blocked domains: a constraint of three attributes, no relationship, nothing to update
        // (every text attribute is in the key).
        Case(
            model: "mastodon-ios/CoreData 9.xcdatamodel", entity: "DomainBlock",
            refused: refusing(relatedStrategies, needsRelated).merging(noTarget.filter { $0.value == "cannot update" })
            { related, _ in related }),
        // The browser's tracker log: no constraint or index, a key named.
        Case(
            model: "duckduckgo-ios/AppTrackingProtectionModel.xcdatamodel", entity: "AppTrackerEntity", dupRate: 0,
            refused: keyless),
        Case(
            model: "duckduckgo-ios/AppTrackingProtectionModel.xcdatamodel", entity: "AppTrackerEntity", key: ["uuid"],
            refused: refusing(uniqueStrategies, needsUnique).merging(refusing(relatedStrategies, needsRelated)) {
                unique, _ in unique
            }),
        // The shop manager (issue 41): an order item related to its order (49 attributes, no
        // constraint: found by orderID), the order's items ordered (Z_FOK_ORDER) and cascading.
        Case(
            model: "woocommerce-ios/Model 117.xcdatamodel", entity: "OrderItem", key: ["itemID"],
            relationship: "order.orderID",
            refused: refusing(uniqueStrategies, needsUnique)),
        // A product of 64 attributes, imported alone.
        Case(
            model: "woocommerce-ios/Model 117.xcdatamodel", entity: "Product", key: ["productID"], relationship: "none",
            refused: refusing(uniqueStrategies, needsUnique).merging(refusing(relatedStrategies, needsRelated)) {
                unique, _ in unique
            }
            .merging(batchDeleteRefused) { a, _ in a }),
        // The messenger: teams keyed by a UUID kept as 16 bytes, related to their creator by hers.
        Case(
            model: "wire-ios/zmessaging2.101.0.xcdatamodel", entity: "Team", key: ["remoteIdentifier_data"],
            relationship: "creator.remoteIdentifier_data",
            refused: refusing(uniqueStrategies, needsUnique).merging(noTarget) { a, _ in a }),
        // A reaction to a message: the abstract Message created as a TextMessage (one table, Z_ENT).
        Case(
            model: "wire-ios/zmessaging2.101.0.xcdatamodel", entity: "Reaction",
            relationship: "message:TextMessage.nonce_data",
            dupRate: 0, refused: keyless),
        // The dosing app: a glucose sample kept unique by [uuid] and by [syncIdentifier]; a pump
        // event keyed by its raw bytes.
        Case(
            model: "loopkit/Modelv4.xcdatamodel", entity: "CachedGlucoseObject", key: ["uuid"],
            refused: refusing(relatedStrategies, needsRelated)),
        Case(
            model: "loopkit/Modelv4.xcdatamodel", entity: "PumpEvent",
            refused: refusing(relatedStrategies, needsRelated)),
        // The music player: a song (two abstract parents, its id's index declared on it) on its
        // album, found by the album's inherited id; a statistics row of 51 attributes.
        Case(
            model: "amperfy/Amperfy v49.xcdatamodel", entity: "Song", key: ["id"], relationship: "album.id",
            refused: refusing(uniqueStrategies, needsUnique)),
        Case(model: "amperfy/Amperfy v49.xcdatamodel", entity: "UserStatistics", dupRate: 0, refused: keyless),
        // The emulator: an input mapping kept unique by [identifier] and by a compound of three.
        Case(
            model: "delta/Delta 12.xcdatamodel", entity: "GameControllerInputMapping", key: ["identifier"],
            refused: refusing(relatedStrategies, needsRelated).merging(noTarget.filter { $0.value == "cannot update" })
            { related, _ in related }),
        // A forecast's values, the forecast found by its date; a note app's notes (an attribute
        // named deleted, an abstract parent).
        Case(
            model: "trio/TrioCoreDataPersistentContainer.xcdatamodel", entity: "ForecastValue", dupRate: 0,
            refused: keyless),
        Case(model: "simplenote-ios/Simplenote 7.xcdatamodel", entity: "Note", dupRate: 0, refused: keyless),
        // The glucose monitor: calibrations of a sensor found by its id (no constraint).
        Case(
            model: "xdripswift/xdrip v16.xcdatamodel", entity: "Calibration", key: ["id"], relationship: "sensor.id",
            refused: refusing(uniqueStrategies, needsUnique).merging(batchDeleteRefused) { a, _ in a }),
    ]

    func configuration(_ c: Case, _ strategy: any WriteStrategy) -> RunConfiguration {
        var r = RunConfiguration()
        r.strategy = strategy.name
        r.operation = strategy.operation
        r.fraction = strategy.operation == .update || strategy.operation == .delete ? 0.2 : nil
        r.model.path = Self.folder + "/" + c.model
        r.model.entity = c.entity
        r.model.key = c.key
        r.model.relationship = c.relationship
        r.workload.usesModel = true
        r.workload.modelParents = 7
        r.workload.payloadBytes = 32
        r.workload.rows = 240
        r.workload.dupRate = strategy.operation == .import ? c.dupRate : 0
        r.batchSize = 50
        r.writers = 2
        return r
    }

    /// The doc on a team's own model, where the corpus sentence lives (the README's, before issue 57
    /// moved it).
    static let corpusDoc = "docs/YOUR-MODEL.md"

    /// Every strategy the roles allow leaves a verified store; the others are refused, each for
    /// the reason the case names.
    /// The doc on a team's own model says how big the corpus is from these cases, not from memory.
    @Test func theReadmeCountsTheCorpusAsTheTestsRunIt() throws {
        let doc = try String(contentsOfFile: Self.folder + "/../../" + Self.corpusDoc, encoding: .utf8)
        let apps = Set(Self.cases.map { $0.model.split(separator: "/")[0] }).count
        #expect(
            doc.contains("on \(Self.cases.count) entity roles of \(apps) apps"),
            "\(Self.corpusDoc): the corpus sentence")
    }

    @Test(arguments: cases)
    func everyApplicableStrategyRuns(_ c: Case) async throws {
        try await Self.onOwnThread { try self.runEvery(c) }
    }

    private func runEvery(_ c: Case) throws {
        ConcurrencyDebug.isEnabled = true
        var refused: [String: String] = [:]
        for name in StrategyRegistry.names {
            let strategy = StrategyRegistry.strategy(named: name)!
            let config = configuration(c, strategy)
            let source = try ImportSource.resolve(config)
            let shape = try source.shape(config.shapeOptions)
            if let reason = source.refusal(of: strategy, shape: shape) {
                refused[name] = reason
                continue
            }
            try run(strategy, config, c)
        }
        for (name, start) in c.refused {
            #expect(
                refused[name]?.hasPrefix(start) == true,
                "\(c.testDescription): \(name) refused for \(refused[name] ?? "nothing")")
        }
        #expect(Set(refused.keys) == Set(c.refused.keys), "\(c.testDescription): refused \(refused)")
    }

    private func run(_ strategy: any WriteStrategy, _ config: RunConfiguration, _ c: Case) throws {
        let what = "\(c.testDescription) \(strategy.name)"
        let path = NSTemporaryDirectory() + "corpus-\(UUID().uuidString).sqlite"
        defer { for s in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + s) } }
        var options = StoreOptions(path: path)
        options.persistentHistoryTracking = strategy.requiresHistory
        // Racing writers on a shared, loaded runner may hold the lock past the 5 s default.
        options.busyTimeoutMilliseconds = 60_000
        var job = StrategyJob(configuration: config, store: options)
        if strategy.operation.needsFilledStore {
            job.operationTarget = try OperationSetup.prepare(job)
            job.prepared = try strategy.setUp(job)
        }
        let counters = try strategy.run(job)
        job.prepared = nil
        let v = try job.verifyStore(repeated: strategy.repeatedKey)
        #expect(v.integrity == "ok" && v.lost == 0 && v.unexpectedRows == 0, "\(what): \(v)")
        // Racing writers that each find the other's related object take it (a one-to-one is never
        // shared), leaving a copy without one: the buggy idiom's bad links, as its duplicates.
        let racing = strategy.expectations.linked && !strategy.expectations.uniqueKeys && !strategy.isLimit
        if racing, try ImportSource.resolve(config).roles.parentInverse != nil {
            #expect(v.badLinks <= v.duplicates, "\(what): \(v)")
        } else {
            #expect(v.problems(strategy.expectations).isEmpty, "\(what): \(v.problems(strategy.expectations))")
        }
        if strategy.operation == .import, strategy.expectations.uniqueKeys {
            #expect(v.storeRows == config.workload.uniqueKeys && v.duplicates == 0, "\(what)")
        }
        if strategy.operation != .import {
            let problems = try OperationSetup.problems(job, job.operationTarget!, counters: counters)
            #expect(problems.isEmpty, "\(what): \(problems)")
        }
    }

    /// `generate` then `--input`: the file reads back as the records written, composite keys and
    /// nested relationship members included.
    @Test(arguments: cases)
    func aGeneratedFileReadsBackAsTheSameRecords(_ c: Case) async throws {
        try await Self.onOwnThread { try self.roundTrip(c) }
    }

    /// Every entity of every model, not only the cases' (issue 28, item 5): the roles resolved as
    /// a team would answer the run's questions (`--relationship none` where several to-ones are
    /// left open, the first attribute as `--key` where nothing keys the entity), then `generate`
    /// and `--input` give back the records written. An entity the roles cannot serve is refused
    /// by `generate` with its reason, and named here.
    @Test(arguments: layouts)
    func everyEntityRoundTrips(_ model: String) async throws {
        let file = try ModelFile.read(Self.folder + "/" + model)
        var refused: [String] = []
        var ran = 0
        for entity in file.entities where !entity.isAbstract {
            var c = Case(model: model, entity: entity.name)
            var resolved = false
            for attempt in 0..<6 {
                do {
                    let config = configuration(c, ContextResetStrategy())
                    _ = try ImportSource.resolve(config).shape(config.shapeOptions)
                    resolved = true
                    break
                } catch {
                    let why = "\(error)"
                    // The run's own advice: "give --relationship user", "--relationship author.ATTRIBUTE",
                    // "give --relationship NAME … (one of: author, card, none)", "--relationship
                    // message:ENTITY … (one of: AssetClientMessage, …)": take what it names, the
                    // first choice for a placeholder.
                    let choices =
                        why.components(separatedBy: "(one of: ").dropFirst().last?.components(separatedBy: ", ")
                        .map { String($0.prefix { $0.isLetter || $0.isNumber || $0 == "_" }) } ?? []
                    var advice =
                        why.components(separatedBy: "--relationship ").dropFirst().first
                        .map { String($0.prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == ":" || $0 == "_" }) }
                        ?? ""
                    if advice == "NAME", let first = choices.first { advice = first }
                    if advice.contains(":ENTITY"), let first = choices.first {
                        advice = advice.replacingOccurrences(of: ":ENTITY", with: ":" + first)
                    }
                    if advice.hasSuffix(".ATTRIBUTE") {
                        let head = String(advice.dropLast(".ATTRIBUTE".count))
                        let parts = head.split(separator: ":").map(String.init)
                        let destination =
                            parts.count == 2
                            ? file.entity(named: parts[1])
                            : entity.relationship(parts[0]).flatMap { file.entity(named: $0.destination) }
                        advice =
                            destination?.attributes.first { ImportRoles.keyTypes.contains($0.type) }.map {
                                head + "." + $0.name
                            } ?? ""
                    }
                    if attempt < 5, !advice.isEmpty, advice != c.relationship {
                        c.relationship = advice
                        continue
                    }
                    if attempt < 4 && why.contains("--relationship") && c.relationship == nil {
                        c.relationship = "none"
                        continue
                    }
                    if attempt < 4 && why.contains("--key") && c.key == nil,
                        let first = entity.attributes.first(where: { ImportRoles.keyTypes.contains($0.type) })
                    {
                        c.key = [first.name]
                        continue
                    }
                    refused.append("\(entity.name): \(why)")
                    break
                }
            }
            guard resolved else { continue }
            let resolvedCase = c
            try await Self.onOwnThread { try self.roundTrip(resolvedCase) }
            ran += 1
        }
        #expect(ran + refused.count == file.entities.count { !$0.isAbstract }, "\(model)")
        // What the roles cannot serve, each refused saying what would make it work: a related
        // object loadgen would create with a required to-one of its own left empty (a status
        // needs its author), a related object with nothing to find it by.
        let names = Set(refused.map { String($0.prefix { $0 != ":" }) })
        #expect(names == Self.unservable[model, default: []], "\(model): \(refused.joined(separator: "; "))")
        #expect(
            refused.allSatisfy { $0.contains("make it optional in the model") || $0.contains("constrain one") },
            "\(refused)")
    }

    /// Entities whose records need two related objects (a required to-one beside the one a run
    /// relates: `ParticipantRole.user` and `.conversation`), or whose related object needs one of
    /// its own (`OrderItem.order` when an add-on creates its item): loadgen relates a record to
    /// one object, which it creates with nothing related.
    static let unservable: [String: Set<String>] = [
        "mastodon-ios/CoreData 9.xcdatamodel": ["Application", "Card", "Feed", "Poll"],
        "wire-ios/zmessaging2.101.0.xcdatamodel": ["ParticipantRole"],
        "woocommerce-ios/Model 117.xcdatamodel": ["OrderItemProductAddOn"],
        "xdripswift/xdrip v16.xcdatamodel": ["BgReading"],
    ]

    private func roundTrip(_ c: Case) throws {
        let config = configuration(c, ContextResetStrategy())
        let shape = try ImportSource.resolve(config).shape(config.shapeOptions)
        let path = NSTemporaryDirectory() + "corpus-\(UUID().uuidString).json"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var source = GeneratedRecords(spec: config.workload, shape: shape)
        var writer = RecordFileWriter(fd: fd, format: .json, shape: shape, pool: source.pool)
        var written: [Record] = []
        var r = Record()
        while source.next(into: &r) {
            try writer.write(r)
            written.append(r)
        }
        try writer.finish()
        close(fd)
        let reader = try RecordFileReader(path: path, shape: shape)
        var n = 0
        while try reader.next(into: &r) {
            for f in shape.fields.indices {
                let name = "\(c.testDescription) record \(n) \(shape.fields[f].name)"
                let w = written[n].values
                #expect(r.values.isNull(f) == w.isNull(f), "\(name)")
                guard !w.isNull(f) else { continue }
                switch shape.fields[f].type {
                case .text, .bytes, .uuid:
                    let read = r.values.withBytes(f, pool: nil) { Array($0) }
                    #expect(read == w.withBytes(f, pool: source.pool) { Array($0) }, "\(name)")
                case .bool: #expect(r.values.bool(f) == w.bool(f), "\(name)")
                case .real, .date: #expect(r.values.double(f) == w.double(f), "\(name)")
                case .integer16, .integer32, .integer64: #expect(r.values.integer(f) == w.integer(f), "\(name)")
                }
            }
            n += 1
        }
        #expect(n == written.count && reader.ignoredMembers.isEmpty, "\(c.testDescription): \(reader.ignoredMembers)")
    }

    /// "" is a value like any other in a key of several attributes (issue 28): the notifications
    /// store's subscriptions keyed by server and topic, two on the empty server, import through
    /// every kind of writer and are stored as '' (never NULL).
    @Test func anEmptyStringIsAKeyComponent() async throws {
        try await Self.onOwnThread { try self.emptyComponent() }
    }

    private func emptyComponent() throws {
        ConcurrencyDebug.isEnabled = true
        let file = NSTemporaryDirectory() + "corpus-empty-\(UUID().uuidString).ndjson"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try """
        {"baseUrl": "", "topic": "alerts"}
        {"baseUrl": "", "topic": "builds"}
        {"baseUrl": "https://ntfy.sh", "topic": "alerts"}
        {"baseUrl": "", "topic": "alerts"}

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let c = Case(model: "ntfy-ios/Model.xcdatamodel", entity: "Subscription")
        for strategy in [RawSQLiteUniqueStrategy(), BatchStrategy(), ContextResetStrategy(), OneWriterStrategy()]
            as [any WriteStrategy]
        {
            let path = NSTemporaryDirectory() + "corpus-empty-\(UUID().uuidString).sqlite"
            defer { for x in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + x) } }
            var config = configuration(c, strategy)
            config.input = file
            var job = StrategyJob(configuration: config, store: StoreOptions(path: path))
            job.input = file
            _ = try strategy.run(job)
            let v = try job.verifyStore(repeated: strategy.repeatedKey)
            #expect(
                v.storeRows == 3 && v.duplicates == 0 && v.lost == 0 && v.unexpectedRows == 0, "\(strategy.name): \(v)")
            let db = try Database(path: path)
            #expect(try db.scalarInt("SELECT count(*) FROM ZSUBSCRIPTION WHERE ZBASEURL = ''") == 2, "\(strategy.name)")
        }
    }

    // MARK: The store's layout

    /// The models whose stores are checked.
    static let layouts = [
        "kiwix-apple/DataModel.xcdatamodel", "ntfy-ios/Model.xcdatamodel",
        "AltStore/AltStore 17.xcdatamodel", "duckduckgo-ios/AppTrackingProtectionModel.xcdatamodel",
        "duckduckgo-ios/BookmarksAndFolders.xcdatamodel", "mastodon-ios/CoreData 9.xcdatamodel",
        "woocommerce-ios/Model 117.xcdatamodel", "wire-ios/zmessaging2.101.0.xcdatamodel",
        "loopkit/Modelv4.xcdatamodel", "amperfy/Amperfy v49.xcdatamodel", "delta/Delta 12.xcdatamodel",
        "trio/TrioCoreDataPersistentContainer.xcdatamodel", "simplenote-ios/Simplenote 7.xcdatamodel",
        "xdripswift/xdrip v16.xcdatamodel",
    ]

    /// An `<entity>` of a model file's text, read here independently of the engine's reader.
    struct TextEntity {
        var name: String
        var parent: String?
        var attributes: [String]
        /// (name, toMany, ordered, destination, inverse)
        var relationships: [(name: String, toMany: Bool, ordered: Bool, destination: String, inverse: String?)]
        var body: String
    }

    static func textEntities(_ text: String) -> [TextEntity] {
        text.components(separatedBy: "<entity ").dropFirst().map { entity in
            let head = String(entity.prefix { $0 != ">" })
            let body = entity.components(separatedBy: "</entity>")[0]
            // A transient relationship stores nothing (no column, no join table).
            let relationships = elements("relationship", in: body).filter { !$0.contains("transient=\"YES\"") }.map {
                r in
                (
                    values("name", in: r)[0], r.contains("toMany=\"YES\""), r.contains("ordered=\"YES\""),
                    values("destinationEntity", in: r)[0], values("inverseName", in: r).first
                )
            }
            return TextEntity(
                name: values("name", in: head)[0], parent: values("parentEntity", in: head).first,
                attributes: elements("attribute", in: body).filter { !$0.contains("transient=\"YES\"") }
                    .map { values("name", in: $0)[0] },
                relationships: relationships, body: body)
        }
    }

    /// The store Core Data lays out (issue 28, item 2), computed here from the model file's text
    /// and checked against the engine's store: entities numbered roots first by name, each
    /// followed by its sub-entities (`Z_PRIMARYKEY` with `Z_SUPER`); one table per root holding
    /// Z_PK, Z_ENT, Z_OPT and a column per stored attribute and to-one of the whole hierarchy,
    /// `Z_FOK_<to-one>` where the inverse is an ordered to-many, `Z<n>_<to-one>` where the
    /// destination has sub-entities; an index per to-one, per fetch index and per constraint,
    /// one on Z_ENT for a root with sub-entities; a join table per many-to-many.
    @Test(arguments: layouts)
    func theStoreHasTheLayoutTheModelDescribes(_ model: String) throws {
        let text = try String(contentsOfFile: Self.folder + "/" + model + "/contents", encoding: .utf8)
        let file = try ModelFile.read(Self.folder + "/" + model)
        let path = NSTemporaryDirectory() + "corpus-layout-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try Database(path: path)
        try StoreSchema.create(in: db, model: try ManagedObjectModel(file.entities))
        var indexes: Set<String> = []
        let list = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        while try list.step() { indexes.insert(list.text(at: 0) ?? "") }
        let entities = Self.textEntities(text)
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0) })
        func children(_ name: String?) -> [String] { entities.filter { $0.parent == name }.map(\.name).sorted() }
        var order: [String] = []
        func visit(_ name: String) {
            order.append(name)
            children(name).forEach(visit)
        }
        children(nil).forEach(visit)
        let id = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0 + 1) })
        func root(_ name: String) -> String { byName[name]!.parent.map(root) ?? name }
        func lineage(_ name: String) -> [TextEntity] { (byName[name]!.parent.map(lineage) ?? []) + [byName[name]!] }
        var keys: [String] = []
        let rows = try db.prepare("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        while try rows.step() { keys.append("\(rows.int(at: 0)) \(rows.text(at: 1) ?? "") \(rows.int(at: 2))") }
        #expect(keys == order.map { "\(id[$0]!) \($0) \(byName[$0]!.parent.flatMap { id[$0] } ?? 0)" }, "\(model)")
        // Columns by table, each counted once per entity of the hierarchy declaring it: a name two
        // sub-entities share takes a number (`ZHEIGHT`, `ZHEIGHT1`: `uniqueNameWithBase:`).
        var expected: [String: [String: Int]] = [:]
        var joins: [String: (columns: [String], ordered: Int)] = [:]
        for e in entities {
            let table = "Z" + root(e.name).uppercased()
            var columns = expected[table] ?? ["Z_PK": 1, "Z_ENT": 1, "Z_OPT": 1]
            for a in e.attributes { columns["Z" + a.uppercased(), default: 0] += 1 }
            for r in e.relationships where !r.toMany {
                columns["Z" + r.name.uppercased(), default: 0] += 1
                let inverse = r.inverse.flatMap { i in
                    lineage(r.destination).flatMap(\.relationships).first { $0.name == i }
                }
                if inverse?.toMany == true && inverse?.ordered == true {
                    columns["Z_FOK_" + r.name.uppercased(), default: 0] += 1
                }
                if !children(r.destination).isEmpty {
                    columns["Z\(id[r.destination]!)_" + r.name.uppercased(), default: 0] += 1
                }
                #expect(indexes.contains("\(table)_Z\(r.name.uppercased())_INDEX"), "\(model) \(e.name).\(r.name)")
            }
            expected[table] = columns
            let toMany = Set(lineage(e.name).flatMap(\.relationships).filter(\.toMany).map(\.name))
            for index in Self.elements("fetchIndex", in: e.body).map({ Self.values("name", in: $0)[0] }) {
                // An index of to-manys only has no column to index: none is made (noted).
                let body = e.body.components(separatedBy: "<fetchIndex name=\"\(index)\"")[1].components(
                    separatedBy: "</fetchIndex>")[0]
                let onlyToMany = Self.values("property", in: body).allSatisfy(toMany.contains)
                #expect(
                    indexes.contains("Z_\(e.name)_\(index)") != onlyToMany, "\(model) \(e.name) fetch index \(index)")
            }
            for constraint in e.body.components(separatedBy: "<uniquenessConstraint>").dropFirst() {
                let members = Self.values("value", in: constraint.components(separatedBy: "</uniquenessConstraint>")[0])
                #expect(
                    indexes.contains("Z_\(e.name)_UNIQUE_" + members.joined(separator: "_")),
                    "\(model) \(e.name) \(members)")
            }
            if e.parent == nil && !children(e.name).isEmpty {
                #expect(indexes.contains("\(table)_Z_ENT_INDEX"), "\(model) \(table)")
            }
            for r in e.relationships where r.toMany {
                guard let i = r.inverse,
                    let inverse = lineage(r.destination).flatMap(\.relationships).first(where: { $0.name == i }),
                    inverse.toMany, id[e.name]! < id[r.destination]! || (e.name == r.destination && r.name < i)
                else { continue }
                let join = "Z_\(id[e.name]!)\(r.name.uppercased())"
                // An ordered side keeps each pair's position in a Z_FOK_ column of its own.
                joins[join] = (
                    ["Z_\(id[e.name]!)\(i.uppercased())", "Z_\(id[r.destination]!)\(r.name.uppercased())"],
                    [r.ordered, inverse.ordered].count { $0 }
                )
            }
        }
        // A join table's column takes a number after its name when the entity already has one
        // of that name (a social app's Z_8VOTEDBY1; a contacts store's Z_19PARENTGROUPS1).
        func named(_ found: String, _ base: String) -> Bool {
            found == base || found.hasPrefix(base) && found.dropFirst(base.count).allSatisfy(\.isNumber)
        }
        var tables: Set<String> = []
        let names = try db.prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('Z_PRIMARYKEY', 'Z_METADATA', 'Z_MODELCACHE')"
        )
        while try names.step() { tables.insert(names.text(at: 0) ?? "") }
        #expect(tables == Set(expected.keys).union(joins.keys), "\(model)")
        func columns(_ table: String) throws -> [String] {
            var found: [String] = []
            let info = try db.prepare("PRAGMA table_info(\(table))")
            while try info.step() { found.append(info.text(at: 1) ?? "") }
            return found
        }
        for (table, (keys, ordered)) in joins {
            let found = try columns(table)
            let bases = keys.sorted { named(found[0], $0) && !named(found[0], $1) }
            #expect(
                found.count == 2 + ordered && named(found[0], bases[0]) && named(found[1], bases[1])
                    && found.dropFirst(2).allSatisfy { $0.hasPrefix("Z_FOK_") }, "\(model) \(table): \(found)")
            #expect(indexes.contains("\(table)_\(found[1])_INDEX"), "\(model) \(table)")
        }
        for (table, counts) in expected {
            // Each column found counted under its base name (a numbered repeat under the name it repeats).
            var found: [String: Int] = [:]
            for c in try columns(table) {
                let base = counts[c] != nil ? c : String(c.reversed().drop(while: \.isNumber).reversed())
                found[base, default: 0] += 1
            }
            #expect(
                found == counts,
                "\(model) \(table): \(found.sorted { $0.key < $1.key }) against \(counts.sorted { $0.key < $1.key })")
        }
    }

    /// The opening tags of `element` in `text`.
    static func elements(_ element: String, in text: String) -> [String] {
        text.components(separatedBy: "<\(element) ").dropFirst().map { String($0.prefix { $0 != ">" }) }
    }

    /// The values of `key="…"` in `text`, in order.
    static func values(_ key: String, in text: String) -> [String] {
        (" " + text).components(separatedBy: " \(key)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    /// Runs `body` on a thread of its own: the strategies block while they run, and a test that
    /// holds a thread of Swift's cooperative pool (two on a two-core runner) starves the async
    /// tests of other suites past their time limits.
    static func onOwnThread(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, Error>) in
            let thread = Thread {
                do {
                    try body()
                    done.resume()
                } catch { done.resume(throwing: error) }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}

import ObjectGraph
import Report

/// A way of writing a dataset into a Core Data–style store: one idiom from the design-review
/// arguments, done for real through the engine (or SQLite itself, for the limit). It is what the
/// catalogue shows of it (`CatalogueEntry`) and what a run does with it (`StrategyBehaviour`).
///
/// Adding a strategy is one file conforming to this protocol and one line in `StrategyRegistry`.
package protocol WriteStrategy: CatalogueEntry, StrategyBehaviour {}

/// What `loadgen list`, the summaries and the conclusions show of a strategy: its names and
/// words, and what a reader of its figures must know (a caveat, a bug it demonstrates, what it
/// never delivers, the fix Core Data offers). Nothing here changes what a run does.
package protocol CatalogueEntry: Sendable {
    /// The name on the command line and in CSV (`context-reset`).
    var name: String { get }
    /// One line for `loadgen list`: what it does.
    var summary: String { get }
    /// The Core Data idiom it models, as users would name it.
    var idiom: String { get }
    /// For a strategy that measures something other than the full idiom: what a reader of its
    /// numbers must keep in mind (summaries print it as a footnote). Empty for the others.
    var caveat: String { get }
    /// True for the yardsticks (`raw-sqlite`, `raw-sqlite-unique`): measured to compare others
    /// with, so summaries rank the idioms without them.
    var isLimit: Bool { get }
    /// What a team does when this strategy's writes do not reach a screen (`--view-context`
    /// shows rows missing): Core Data's fix, for the summary to give beside the verdict. Nil for
    /// a strategy whose saves reach the screen.
    var screenAdvice: String? { get }
    /// What Core Data offers to close the gap when this idiom's store falls short of what a
    /// workload needs (duplicated keys, records without their parent, a screen that misses rows):
    /// the conclusion gives it beside the shortfall. Defaults to `StoreAdvice`'s, the screen's to
    /// `screenAdvice`.
    func fix(for requirement: Requirement) -> String?
    /// What it cannot deliver by what it is, whatever its store holds (`read-dictionaries`: no
    /// managed objects): short of it wherever a workload needs it.
    var neverDelivers: Set<Requirement> { get }
    /// For an idiom in the catalogue to demonstrate a bug (seed 001's downloader): the bug and
    /// its fix. Such an idiom is measured and shown, never recommended.
    var demonstratedBug: DemonstratedBug? { get }
    /// What the strategy's result is when it is not the records themselves (`a count`): it is
    /// compared only with strategies of the same purpose. Nil for the rest.
    var purpose: String? { get }
}

/// What a run does with a strategy: what it needs of the model's store and of the run (a key,
/// writers, a filled store, history), what the verifier must find when it is done, and the work,
/// through the engine's protocols.
package protocol StrategyBehaviour: Sendable {
    /// What the idiom needs the store to have on the record key. The store is always the
    /// model's own (with the what-ifs the run asks for, `--add-constraint`, `--add-index`): a
    /// need the model does not meet refuses the strategy (a uniqueness constraint) or is said in
    /// the run's notes (an index: its lookups scan).
    var keyNeed: KeyNeed { get }
    /// Whether the strategy takes records from concurrent producers (`--writers`).
    var usesWriters: Bool { get }
    /// Whether it has several writer contexts that may each have a coordinator (`--coordinators`).
    var usesCoordinators: Bool { get }
    /// Whether `--batch-size` means something to it, and its default.
    var defaultBatchSize: Int? { get }
    /// What it does to the store: imports records (most), or updates, deletes or reads the
    /// records of a store filled first (`--operation`).
    var operation: Operation { get }
    /// Which copy of a key an import file repeats the store keeps, as this idiom merges: the
    /// verifier expects that copy's related object. Defaults to the last (a find-or-create sets
    /// the found object from each later record), any copy for concurrent producers.
    var repeatedKey: RepeatedKey { get }
    /// What the store holds when it is done: a verifier finding that breaks this fails the
    /// repetition. Everything but the limits and the buggy idioms promises `.complete`.
    var expectations: StoreExpectations { get }
    /// True for a strategy that issues batch insert, update or delete requests: `--result` says
    /// what they return.
    var issuesBatchRequests: Bool { get }
    /// True for a strategy that needs persistent history: its runs record it (`--history`)
    /// whether asked or not.
    var requiresHistory: Bool { get }
    /// True for a strategy whose idiom is finding the related object of each record (N+1,
    /// prefetching): it cannot run on a model whose records relate to nothing.
    var resolvesRelatedObjects: Bool { get }

    /// Why the idiom cannot run on this model, as Core Data refuses it (`batch-delete` on an entity
    /// whose delete rules a batch delete cannot carry out); nil when it can. The run refuses the
    /// strategy by name while the others run.
    func refusal(on source: ImportSource) -> String?

    /// Writes every record of `job` into the store at `job.store` (which does not exist yet), or
    /// for another operation works on the store filled before, through the engine `Store`
    /// (decision 0047: a strategy names only the protocols, never the engine's classes). Throws
    /// when the work cannot be completed; what was written stays for the verifier.
    func run<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> StrategyCounters

    /// Untimed preparation before the window (object IDs known up front, a screen already
    /// showing the records), on the engine `Store`. Most strategies need none.
    func setUp<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> PreparedState?

    /// `run(_:on:)` on the engine of the run (`Engine`). A requirement, not only an extension,
    /// so that each strategy's witness calls its own `run(_:on:)` with the engine known: the
    /// compiler specialises the whole strategy for it, and no per-record call goes through a
    /// protocol's witness table. Never implemented by a strategy.
    func run(_ job: StrategyJob) throws -> StrategyCounters

    /// `setUp(_:on:)` on the engine of the run, likewise.
    func setUp(_ job: StrategyJob) throws -> PreparedState?
}

extension StrategyBehaviour {
    package var usesWriters: Bool { false }
    package var operation: Operation { .import }
    /// An update or delete opens the store and shows the run's screen before the window.
    package func setUp<Store: ObjectStore>(_ job: StrategyJob, on engine: Store.Type) throws -> PreparedState? {
        operation == .update || operation == .delete ? try FilledStore<Store>.prepared(job) : nil
    }
    package func run(_ job: StrategyJob) throws -> StrategyCounters { try run(job, on: Engine.self) }
    package func setUp(_ job: StrategyJob) throws -> PreparedState? { try setUp(job, on: Engine.self) }
    package var usesCoordinators: Bool { usesWriters }
    package var defaultBatchSize: Int? { 1_000 }
    package var expectations: StoreExpectations { .complete }
    package var repeatedKey: RepeatedKey { usesWriters ? .any : .last }
    package var requiresHistory: Bool { false }
    package var issuesBatchRequests: Bool { false }
    package var resolvesRelatedObjects: Bool { false }
    package func refusal(on source: ImportSource) -> String? { nil }
}

extension CatalogueEntry {
    package var caveat: String { "" }
    package var isLimit: Bool { false }
    package var screenAdvice: String? { nil }
    package func fix(for requirement: Requirement) -> String? {
        requirement == .screen ? screenAdvice ?? StoreAdvice.fix(for: .screen) : StoreAdvice.fix(for: requirement)
    }
    package var demonstratedBug: DemonstratedBug? { nil }
    package var purpose: String? { nil }
    package var neverDelivers: Set<Requirement> { [] }
}

/// What an idiom needs the store to have on the record key (decision 0039: no strategy adds or
/// drops an index; the store is the model's).
package enum KeyNeed: String, Sendable, Codable, CaseIterable {
    /// Nothing: it inserts without looking records up (`raw-sqlite`, a bare batch insert), or
    /// works on a filled store by other means (a date, object IDs).
    case nothing
    /// A key to tell records apart, looked up without a query per record (every stored key
    /// read once, `find-or-create-cached`): no index needed.
    case key
    /// An index to find records by key: it runs without one, each lookup a scan of the table,
    /// and the run says so (`--add-index` measures the what-if).
    case index
    /// A uniqueness constraint on the key: it deduplicates through one (`INSERT OR IGNORE`, a
    /// merge policy), so it is refused on a model without one (`--add-constraint` measures it).
    case uniqueness
}

/// A bug an idiom of the catalogue demonstrates, and the idiom that fixes it.
package struct DemonstratedBug: Sendable {
    /// What goes wrong ("check-then-insert in contexts saving at once lets duplicates race in").
    package let bug: String
    /// What a team does instead.
    package let fix: String
}

/// What a strategy does to the store, and what a run measures (`--operation`).
package enum Operation: String, Codable, Hashable, Sendable, CaseIterable {
    /// Write the records into an empty store (the v1 catalogue).
    case `import`
    /// Change a fraction of the records of a filled store.
    case update
    /// Remove a fraction of the records of a filled store.
    case delete
    /// Show the records of a filled store, as a list screen does.
    case read

    /// The store must be filled before the timed window.
    package var needsFilledStore: Bool { self != .import }
}

/// A read of the filled store (`--operation read`), on the model's store as the app has it. A
/// read strategy declares only what differs.
package protocol ReadStrategy: WriteStrategy {}

extension ReadStrategy {
    package var keyNeed: KeyNeed { .nothing }
    package var operation: Operation { .read }
}

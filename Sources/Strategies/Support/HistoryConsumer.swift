import Foundation
import ObjectGraph
import Report
import Synchronization

/// Watches an import from another queue, told after each chunk commits.
protocol ImportWatcher: AnyObject, Sendable {
    /// A write committed (the store's remote-change notification): a wake-up, not a payload.
    func chunkCommitted()
    /// The import is done: catch up, stop, and report.
    func finish(into counters: inout StrategyCounters) throws
    /// Stops without reporting (the import failed). Safe to call more than once.
    func stop()
}

/// Seed 003's consumer: a screen (the view context's results controller over every record)
/// kept current by persistent history alone. On each wake-up a background context fetches the
/// history after the consumer's token, the view context merges each transaction's
/// `objectIDNotification()`, the token advances only then, and history before the token is
/// purged (this is the store's only consumer, so its token is the oldest one).
///
/// Beside it, a second screen relies on `automaticallyMergesChangesFromParent`, which never sees
/// a batch insert (no did-save notification): what it misses is reported.
///
/// `@unchecked Sendable`: each results controller is confined to its context's queue; `token`,
/// `lags`, `waiting` and `peakBacklog` belong to the consumer thread until `stop()` has joined it; `wakeUps` and
/// `stopping` are a lock and an atomic.
final class HistoryConsumer<Store: ObjectStore>: ImportWatcher, @unchecked Sendable {
    private let reader: Store.Context
    private let view: Store.Context
    private let screen: Store.Context.Controller
    private let autoMerged: Store.Context
    private let autoScreen: Store.Context.Controller
    private let recordEntity: String
    private let wakeUps = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private var thread: JoinedThread?
    private var token: HistoryToken?
    private var lags = LatencyHistogram()
    /// Transactions and records waiting at each drain: whether the consumer kept up (`BacklogTrend`).
    private var waiting: [Int] = []
    private var peakBacklog = 0
    private var failure: Error?

    init(container: Store, mapping: ImportModel) throws {
        recordEntity = mapping.recordEntity.name
        reader = container.newBackgroundContext(name: "history-consumer")
        // The seed's view context; --view-context keeps its own.
        view = container.newBackgroundContext(name: "history-screen")
        autoMerged = container.newBackgroundContext(name: "auto-merged-screen")
        autoMerged.automaticallyMergesChangesFromParent = true
        screen = try Self.list(of: recordEntity, in: view)
        autoScreen = try Self.list(of: recordEntity, in: autoMerged)
        // not a results column: a thread name
        thread = JoinedThread(name: "history") { [self] in consume() }
    }

    private static func list(of entity: String, in context: Store.Context) throws -> Store.Context.Controller {
        try context.performAndWait {
            let controller = try Store.Context.Controller(
                fetchRequest: FetchRequest(entityName: entity), managedObjectContext: context)
            try controller.performFetch()
            return controller
        }
    }

    func chunkCommitted() { wakeUps.signal() }

    func finish(into counters: inout StrategyCounters) throws {
        stop()
        if let failure { throw failure }
        counters.historyLagP50Milliseconds = lags.quantileMilliseconds(0.5)
        counters.historyLagP99Milliseconds = lags.quantileMilliseconds(0.99)
        counters.viewObjects = view.performAndWait { screen.count }
        let stored = try reader.performAndWait { try reader.count(for: FetchRequest(entityName: recordEntity)) }
        counters.autoMergeMissed = stored - autoMerged.performAndWait { autoScreen.count }
        counters.mergeMillisecondsTotal = view.mergeMilliseconds
        counters.fellBehind = !BacklogTrend.keptUp(waiting)
        counters.peakBacklog = peakBacklog
    }

    func stop() {
        guard let thread else { return }
        self.thread = nil
        stopping.store(true, ordering: .releasing)
        wakeUps.signal()
        thread.join()
    }

    // MARK: The consumer thread

    private func consume() {
        do {
            while true {
                wakeUps.wait()
                let last = stopping.load(ordering: .acquiring)
                try drain()
                if last { return }
            }
        } catch {
            failure = error
        }
    }

    /// Fetch after the token, merge, then advance the token, then purge: the order that makes a
    /// crash between two steps replay transactions rather than skip them.
    private func drain() throws {
        let transactions = try reader.performAndWait {
            try reader.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)).transactions
        }
        guard let newest = transactions.last?.token else { return }
        waiting.append(transactions.count)
        peakBacklog = max(peakBacklog, transactions.reduce(0) { $0 + $1.changes.count })
        for transaction in transactions {
            view.performAndWait { view.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            let lag = Date().timeIntervalSinceReferenceDate - transaction.timestamp
            lags.record(nanoseconds: UInt64(max(0, lag) * 1e9))
        }
        token = newest
        _ = try reader.performAndWait {
            try reader.execute(PersistentHistoryChangeRequest.deleteHistory(before: newest))
        }
    }
}

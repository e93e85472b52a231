import Foundation
import Host
import ObjectGraph
import Report
import SQLiteKit

/// A filled store kept for the repetitions after the first (issue 56, item 3): an update, delete
/// or read fills its store with the same records before every repetition (24 of 73 s of an update
/// question), so the first repetition of a configuration keeps a copy of its filled store, and
/// the others start from a copy of that, not a refill. The copy is taken with the WAL
/// checkpointed into the file, so the file alone is the store; the external-data folder goes
/// with it. Neither the fill nor the copy is in the measured window.
package enum PrefilledStore {
    /// The targets file beside a template: what `OperationSetup.prepare` found in the filled store.
    static func targetsPath(_ template: String) -> String { template + ".target.json" }

    /// Copies the template into `store` and returns its targets; nil when there is no template
    /// yet (or it cannot be read: the caller fills the store as before).
    package static func restore(_ template: String, into store: StoreOptions) -> OperationTarget? {
        guard !store.isInMemory, let data = FileManager.default.contents(atPath: targetsPath(template)),
            var target = try? JSONDecoder().decode(OperationTarget.self, from: data),
            FileManager.default.fileExists(atPath: template)
        else { return nil }
        let start = Clock.nanoseconds()
        do {
            try FileManager.default.copyItem(atPath: template, toPath: store.path)
            let support = ExternalStorage.supportDirectory(forStore: template)
            if FileManager.default.fileExists(atPath: support) {
                try FileManager.default.copyItem(
                    atPath: support, toPath: ExternalStorage.supportDirectory(forStore: store.path))
            }
        } catch {
            try? FileManager.default.removeItem(atPath: store.path)
            return nil
        }
        // prefill_s says what this repetition spent before its window: the copy.
        target.fillSeconds = Clock.seconds(since: start)
        return target
    }

    /// Keeps `store`, just filled, as the template (its WAL checkpointed into the file first), and
    /// `target` beside it. A template that cannot be written is no failure: the next repetition
    /// fills its store again.
    package static func save(_ store: StoreOptions, target: OperationTarget, as template: String) {
        guard !store.isInMemory else { return }
        do {
            let db = try Database(path: store.path)
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch { return }
        let partial = template + ".partial"
        do {
            try? FileManager.default.removeItem(atPath: partial)
            try FileManager.default.copyItem(atPath: store.path, toPath: partial)
            let support = ExternalStorage.supportDirectory(forStore: store.path)
            if FileManager.default.fileExists(atPath: support) {
                try FileManager.default.copyItem(
                    atPath: support, toPath: ExternalStorage.supportDirectory(forStore: template))
            }
            try JSONEncoder().encode(target).write(to: URL(fileURLWithPath: targetsPath(template)))
            // Last: a template exists only once everything beside it does.
            guard Posix.rename(partial, template) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            for path in [partial, targetsPath(template), ExternalStorage.supportDirectory(forStore: template)] {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
    }
}

import Foundation

/// Folders that name their owner in a file (`pid start`): the sweep that removes those whose
/// owner is proven gone, and keeps every other.
package enum OwnedFolders {
    /// Removes the folders under `base` named `prefix…` whose `ownerFile` names an owner proven
    /// gone. Returns how many, and the folders kept although their owner may be gone: it exists,
    /// but its start time cannot be read (now, or when the folder was made), so it cannot be
    /// proven to be another process. A folder without an owner file is not loadgen's to judge.
    /// `exists` and `startTime` are the system's answers; a test gives its own.
    package static func sweep(
        in base: String, prefix: String, ownerFile: String,
        exists: (Int32) -> Bool = ProcessOwner.exists,
        startTime: (Int32) -> UInt64? = Host.startTime
    ) -> (removed: Int, kept: [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        var removed = 0
        var kept: [String] = []
        for name in names.sorted() where name.hasPrefix(prefix) {
            let folder = base + (base.hasSuffix("/") ? "" : "/") + name
            guard let text = try? String(contentsOfFile: folder + "/" + ownerFile, encoding: .utf8),
                let owner = ProcessOwner(text: text)
            else { continue }
            switch owner.status(exists: exists, startTime: startTime) {
            case .provenGone: if (try? FileManager.default.removeItem(atPath: folder)) != nil { removed += 1 }
            case .unverifiable: kept.append(folder)
            case .alive: break
            }
        }
        return (removed, kept)
    }
}

/// The run ids read so far and the file each came from: a row read twice means rows appended
/// twice or one file given twice, whose repetitions would count double. One check for every
/// reader of several results files (`compare`, `plot`, `report`).
package struct RunIDLedger: Sendable {
    private var files: [String] = []
    private var seen: [String: Int] = [:]

    package init() {}

    /// Starts the next file.
    package mutating func begin(_ path: String) { files.append(path) }

    /// Records `id` for the current file; returns why it may not be read when it was seen before.
    package mutating func add(_ id: String) -> String? {
        guard !id.isEmpty else { return nil }
        let file = files.count - 1
        if let earlier = seen[id] {
            return earlier == file
                ? "run id \(id) appears twice in this file: rows appended twice?"
                : "run id \(id) is also in \(files[earlier]): the same file or shard given twice?"
        }
        seen[id] = file
        return nil
    }
}

import Foundation
import Synchronization

/// Writes timeline samples (`run_id, t_ms, rows_done, rss_bytes, heap_bytes`) to a file,
/// buffered so that sampling every 10 ms costs no system call per sample.
///
/// Used from the sampler thread only; the mutex makes `flush` from the stopping thread safe.
package final class TimelineWriter: Sendable {
    /// The columns a child writes.
    package static let header = "run_id,t_ms,rows_done,rss_bytes,heap_bytes"
    /// The columns of a `--timeline` file: the child's, and the parent's `strategy` and `config`
    /// (the sweep point) appended to each line. `run_id` joins a sample to its results row.
    package static let fileHeader = header + ",strategy,config"

    private let runID: String
    private let state: Mutex<State>

    private struct State: ~Copyable {
        var handle: FileHandle
        var buffer: [UInt8]
    }

    /// Opens (creating or truncating) `path` for this run's samples; no header is written
    /// (the parent adds it once per timeline file).
    package init(path: String, runID: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        self.runID = runID
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64 * 1024)
        state = Mutex(State(handle: handle, buffer: buffer))
    }

    func append(milliseconds: UInt64, rows: Int, rss: Int, heap: Int) {
        let line = "\(runID),\(milliseconds),\(rows),\(rss),\(heap)\n"
        state.withLock { s in
            s.buffer.append(contentsOf: line.utf8)
            if s.buffer.count > 60 * 1024 { Self.flush(&s) }
        }
    }

    /// Writes what is buffered and closes the file.
    package func close() {
        state.withLock { s in
            Self.flush(&s)
            try? s.handle.close()
        }
    }

    private static func flush(_ s: inout State) {
        guard !s.buffer.isEmpty else { return }
        s.handle.write(Data(s.buffer))
        s.buffer.removeAll(keepingCapacity: true)
    }
}

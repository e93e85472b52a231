import Host

/// Writes straight to a file descriptor, with no buffering and no Foundation.
enum FileHandleWriter {
    static func standardError(_ text: String) {
        var copy = text
        // A failed write to standard error has nowhere left to be said.
        copy.withUTF8 { buffer in _ = try? Posix.writeAll(2, UnsafeRawBufferPointer(buffer)) }
    }
}

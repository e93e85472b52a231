import Host

/// Writes straight to a file descriptor, with no buffering and no Foundation.
enum FileHandleWriter {
    static func standardError(_ text: String) {
        var copy = text
        copy.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(2, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { return }
                offset += n
            }
        }
    }
}

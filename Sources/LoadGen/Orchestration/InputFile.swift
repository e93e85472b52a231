import Foundation
import Workload

/// An import file given with `--input`, read once in full before any repetition: a malformed
/// file stops the run at once (exit 65) with nothing created, and the run learns how many
/// records and distinct keys the file holds.
struct InputFile {
    let path: String
    let format: RecordFileFormat
    let dataset: Dataset
    let records: Int
    /// Distinct keys, counted by 64-bit hashes of the key bytes (memory stays small: 8 bytes
    /// per key; a collision, about 1 in 10^7 at a million keys, would undercount by one).
    let uniqueKeys: Int

    static func scan(_ path: String) throws -> InputFile {
        let reader: RecordFileReader
        do {
            reader = try RecordFileReader(path: path)
        } catch let error as ImportFileError {
            throw CommandError(message: "run: --input \(error)", exitCode: ExitCode.noInput)
        } catch let error as ImportError {
            throw CommandError(message: "run: --input \(error)", exitCode: ExitCode.dataError)
        }
        var record = Record()
        var keys = Set<UInt64>()
        do {
            while try reader.next(into: &record) {
                keys.insert(record.key.withBytes(fnv1a))
            }
        } catch let error as ImportError {
            throw CommandError(message: "run: --input \(error)", exitCode: ExitCode.dataError)
        }
        guard reader.recordNumber > 0 else {
            throw CommandError(message: "run: --input \(path): the file holds no records", exitCode: ExitCode.dataError)
        }
        return InputFile(path: path, format: reader.format, dataset: reader.dataset, records: reader.recordNumber,
                         uniqueKeys: keys.count)
    }

    private static func fnv1a(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Mixing.mix(h)
    }
}

import Foundation
import Report

#if LOADGEN_JEMALLOC
    import CJemalloc
#endif

/// loadgen: which Core Data write strategy to use, settled by measuring.
enum LoadGen {
    static let version = "0.1.0"

    static func main(_ arguments: [String]) -> Int32 {
        ProcessLimits.prepare()
        guard !arguments.isEmpty else {
            FileHandle.standardError.write(Data(CommandTable.usage.utf8))
            return ExitCode.usage
        }
        do {
            return try CommandTable.dispatch(arguments)
        } catch let error as CommandError {
            FileHandle.standardError.write(Data("loadgen: \(Format.escapingControls(error.message))\n".utf8))
            return error.exitCode
        } catch {
            FileHandle.standardError.write(Data("loadgen: \(Format.escapingControls("\(error)"))\n".utf8))
            return ExitCode.software
        }
    }
}

#if LOADGEN_JEMALLOC
    // Linked for its malloc; this reference keeps the linker from dropping the library.
    _ = loadgen_jemalloc_anchor()
#endif
exit(LoadGen.main(Array(CommandLine.arguments.dropFirst())))

import Foundation
import Host
import Report
import Strategies
import Workload

/// `loadgen generate`: writes a dataset's records as an import file (JSON or NDJSON), the same
/// records `run` would generate with the same options.
enum GenerateCommand {
    static let about = "Write a dataset's records as a JSON or NDJSON import file (for 'loadgen run --input')."

    static let specs: [OptionSpec] =
        WorkloadOptions.specs + [
            .option("--format", "json|ndjson", "file format; default from the file name (.ndjson/.jsonl), else json"),
            .option("--out", "FILE|-", "where to write (- for stdout); required"),
            .flag("--quiet", "no summary on stderr"),
            .flag("--force", "replace --out even when it is not an import file loadgen wrote"),
        ]

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(
                    usage: "loadgen generate --out FILE [options]", about: about, specs: specs,
                    footer:
                        "Example: loadgen generate --dataset expenses --rows 100000 --seed 7 --out data/expenses.json"),
                terminator: "")
            return ExitCode.success
        }
        let a = try Arguments(command: "generate", arguments: arguments, specs: specs)
        if !a.positional.isEmpty {
            throw CommandError.usage("generate: unexpected argument '\(a.positional[0])'; options start with --")
        }
        var configuration = try WorkloadOptions.parse(a)
        let shape = try recordShape(&configuration)
        let spec = configuration.workload
        guard let out = a.string("--out"), !out.isEmpty else {
            throw CommandError.usage("generate: --out FILE is required (- for stdout, /dev/null to time generation)")
        }
        let guessed = out.hasSuffix(".ndjson") || out.hasSuffix(".jsonl") ? "ndjson" : "json"
        let format = RecordFileFormat(
            rawValue: try a.choice(
                "--format", RecordFileFormat.allCases.map(\.rawValue),
                default: guessed))!
        if out != "-", !ResultsFile(path: out).isStream, let problem = OutputName.problem(out) {
            throw CommandError.usage("generate: --out \(out): \(problem)")
        }
        if !a.flag("--force") { try OutputTarget.checkReplaceable(out, shape: shape) }
        // Ctrl-C, SIGTERM or SIGHUP stop the writing and remove the partial file (issue 55, item
        // 22): watched before the file exists, so no signal falls between the two.
        Interrupts.shared.install()
        let target = try OutputTarget(out)
        let start = Clock.nanoseconds()
        try write(spec, shape, format, to: target, out: out)
        let seconds = Clock.seconds(since: start)
        if !a.flag("--quiet") {
            let what = configuration.model.path == nil ? spec.dataset.rawValue : shape.entity
            let line =
                "generated \(spec.rows) \(what) records (\(spec.uniqueKeys) unique keys) as "
                + "\(format.rawValue) to \(out) in \(Format.duration(seconds)) (\(Format.rate(Double(spec.rows) / seconds)))\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        return ExitCode.success
    }

    /// Writes the records into `target` and commits it; on a signal or an error the partial
    /// file is removed.
    private static func write(
        _ spec: WorkloadSpec, _ shape: RecordShape, _ format: RecordFileFormat,
        to target: OutputTarget, out: String
    ) throws {
        do {
            var source = GeneratedRecords(spec: spec, shape: shape)
            var writer = RecordFileWriter(fd: target.fd, format: format, shape: shape, pool: source.pool)
            var record = Record()
            var written = 0
            while source.next(into: &record) {
                try writer.write(record)
                written += 1
                if written & 4095 == 0, Interrupts.shared.wasInterrupted { throw Interrupted() }
            }
            try writer.finish()
            try target.commit()
        } catch is Interrupted {
            target.abandon()
            throw CommandError(
                message: "generate: stopped by \(Interrupts.shared.signalName); --out \(out) was not written",
                exitCode: Interrupts.shared.exitStatus)
        } catch {
            target.abandon()
            throw CommandError(message: "generate: --out \(out): \(error)", exitCode: ExitCode.ioError)
        }
    }

    /// The records' shape for the options (`--attribute-bytes` resolved into the configuration),
    /// errors worded for `generate`.
    private static func recordShape(_ configuration: inout RunConfiguration) throws -> RecordShape {
        do {
            let source = try ImportSource.resolve(configuration)
            do {
                configuration.workload.attributeBytes = try RunPlan.resolveAttributeBytes(
                    configuration.workload.attributeBytes, source)
                try RunPlan.checkMembers(configuration.model.members, source)
            } catch let error as CommandError {
                throw CommandError.usage(error.message.replacingOccurrences(of: "run: ", with: "generate: "))
            }
            var options = configuration.shapeOptions
            options.usesFeed = true   // the file written is read back as a feed
            let shape = try source.shape(options)
            if let problem = shape.keyProblem { throw ImportModelError(problem, kind: .malformed) }
            return shape
        } catch let error as ImportModelError {
            let run = RunPlan.modelError(error)
            throw CommandError(
                message: run.message.replacingOccurrences(of: "run: ", with: "generate: "), exitCode: run.exitCode)
        }
    }
}

/// Where `generate` writes: stdout, a device or FIFO written in place (`/dev/null`, however it is
/// spelled), or a regular file (through its symbolic links, `OutputPath`) written to a temporary
/// name beside it and renamed into place only when complete (a failed run leaves nothing).
struct OutputTarget {
    let fd: Int32
    /// The file the path leads to (the link's target; the path itself otherwise).
    private let target: String
    private let temporary: String?

    init(_ path: String) throws {
        if path == "-" {
            (fd, target, temporary) = (1, path, nil)
            return
        }
        let output: OutputPath
        do { output = try OutputPath(path) } catch {
            throw CommandError(message: "generate: --out \(error)", exitCode: ExitCode.cannotCreate)
        }
        target = output.target
        switch output.kind {
        case .folder:
            throw CommandError(
                message: "generate: --out \(path) is a folder; give a file name", exitCode: ExitCode.cannotCreate)
        case .other:
            throw CommandError(
                message: "generate: --out \(OutputPathError.notAFile(path))", exitCode: ExitCode.cannotCreate)
        case .stream:
            fd = Posix.open(output.target, O_WRONLY)
            temporary = nil
        case .missing, .regular:
            let folder = URL(fileURLWithPath: output.target).deletingLastPathComponent().path
            guard FileManager.default.fileExists(atPath: folder) else {
                throw CommandError(
                    message: "generate: --out folder \(folder) does not exist; create it or choose another path",
                    exitCode: ExitCode.cannotCreate)
            }
            let tmp = output.target + ".tmp-\(Posix.processID)"
            fd = Posix.open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            temporary = tmp
        }
        guard fd >= 0 else {
            throw CommandError(
                message: "generate: --out \(path): \(String(cString: strerror(errno)))", exitCode: ExitCode.cannotCreate
            )
        }
    }

    /// Refuses to replace a file that is not an import file of these records (a results CSV, a
    /// store, a `package.json`: any other JSON a typo could name): `run` protects its outputs the
    /// same way. A file whose first record holds only members of `shape` is an earlier
    /// `generate` of the same records and is replaced; empty files, devices and stdout are fine.
    static func checkReplaceable(_ path: String, shape: RecordShape) throws {
        guard path != "-", let output = try? OutputPath(path), output.kind == .regular else { return }
        let file = output.target
        var info = stat()
        guard Posix.stat(file, &info) == 0, info.st_size > 0 else { return }
        let names = Set(shape.fields.map { $0.flatName ?? $0.container!.name })
        if let header = try? RecordFileReader.header(of: file), !header.firstMembers.isEmpty,
            header.firstMembers.allSatisfy(names.contains), header.arrayName.map({ $0 == shape.arrayName }) ?? true
        {
            return
        }
        throw CommandError(
            message: "generate: --out \(path) exists and is not an import file of these records; "
                + "choose another path, or add --force to replace it", exitCode: ExitCode.cannotCreate)
    }

    func commit() throws {
        guard let temporary else { return }
        guard Posix.fsync(fd) == 0, Posix.close(fd) == 0, Posix.rename(temporary, target) == 0 else {
            throw RecordFileError.cannotWrite(errno)
        }
    }

    func abandon() {
        guard let temporary else { return }
        Posix.close(fd)
        Posix.unlink(temporary)
    }
}

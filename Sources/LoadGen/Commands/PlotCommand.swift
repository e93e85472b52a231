import Foundation
import Host
import Report
import Strategies

/// `loadgen plot CSV… [--timeline FILE] [--history FILE] [--out DIR]`: derives each chart's data
/// from results files and runs `plots.gnuplot` on it.
enum PlotCommand {
    static let about = "Draw the charts of a run (plots.gnuplot) from its results CSV, timeline and nightly history."

    static let specs: [OptionSpec] = [
        .option("--timeline", "FILE", "a --timeline file, for memory over rows"),
        .option("--history", "FILE", "results/history.csv, for the nightly trend"),
        .option(
            "--baseline", "FILE", "the baseline the trend marks",
            default: "results/baseline.csv when --history is given"),
        .option("--out", "DIR", "where the charts (and their data, in DIR/data) go", default: "plots/"),
        .option("--format", "png|svg|both", "image format", default: "png"),
        .option("--script", "FILE", "the gnuplot script", default: "plots.gnuplot, compiled into loadgen"),
        .flag("--data-only", "write the charts' data and stop (for gnuplot -e \"data='DIR/data'\" plots.gnuplot)"),
    ]

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(
                    usage: "loadgen plot RESULTS.csv [more.csv …] [options]", about: about, specs: specs,
                    footer: "Example: loadgen plot results/sweep.csv --timeline results/timeline.csv --out plots/"),
                terminator: "")
            return ExitCode.success
        }
        let a = try Arguments(command: "plot", arguments: arguments, specs: specs)
        let charts = try Charts(a, command: "plot")
        let written = try charts.draw()
        for file in written { print(file) }
        return ExitCode.success
    }
}

/// Reading the inputs and drawing, shared by `plot` and `report`.
struct Charts {
    let command: String
    let inputs: [String]
    let out: String
    let format: String
    let script: Script?
    let dataOnly: Bool
    /// `report --no-charts`: no data, no gnuplot.
    let noCharts: Bool
    let rows: [ResultRow]
    let data: ChartData

    init(_ a: Arguments, command: String, defaultOut: String = "plots/") throws {
        self.command = command
        guard !a.positional.isEmpty else {
            throw CommandError.usage(
                "\(command): expects one or more results CSV files (see 'loadgen \(command) --help')")
        }
        inputs = a.positional
        out = a.string("--out") ?? defaultOut
        guard !out.isEmpty else { throw CommandError.usage("\(command): --out expects a folder") }
        format = try a.choice("--format", ["png", "svg", "both"], default: "png")
        dataOnly = a.flag("--data-only")
        noCharts = a.flag("--no-charts")
        for path in [out] + inputs where path.contains("'") {
            throw CommandError.usage(
                "\(command): '\(path)': paths with a single quote cannot be passed to gnuplot; rename it")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isFolder), !isFolder.boolValue {
            throw CommandError(
                message: "\(command): --out \(out) is a file; give a folder (the charts and their data go in it)",
                exitCode: ExitCode.cannotCreate)
        }
        script = dataOnly || noCharts ? nil : try Self.findScript(a.string("--script"), command: command)
        // Everything is read and checked before anything is written.
        rows = try Self.distinctRuns(inputs.map { ($0, try Self.results($0, command: command)) }, command: command)
        let timeline = try a.string("--timeline").map { try Self.timeline($0, command: command) }
        let historyPath = a.string("--history")
        let history = try historyPath.map { path in
            try Self.reading(path, command: command) { () throws(CompareError) in try TrendSample.read(path) }
        }
        var baselinePath = a.string("--baseline")
        if baselinePath == nil, historyPath != nil, FileManager.default.fileExists(atPath: "results/baseline.csv") {
            baselinePath = "results/baseline.csv"
        }
        let baseline = try baselinePath.map { try Self.results($0, command: command) }
        // --no-charts draws nothing: its charts' data is not computed (seconds over a year of nightlies).
        data = ChartData(
            rows: noCharts ? [] : rows, timeline: timeline, history: history, baseline: baseline,
            writerStrategies: StrategyRegistry.all.filter(\.usesWriters).map(\.name),
            relatedObjectStrategies: StrategyRegistry.all.filter {
                $0.resolvesRelatedObjects && $0.operation == .import
            }.map(\.name),
            limit: RawSQLiteStrategy().name,
            band: Comparison.Options().speed, options: try ConclusionFlags.reading(a, rows: rows).options,
            marks: Dictionary(
                uniqueKeysWithValues: StrategyRegistry.all.filter { !$0.caveat.isEmpty }.map { ($0.name, $0.caveat) }))
    }

    /// Writes the data, runs gnuplot, returns the files written (charts, or data with --data-only).
    ///
    /// Only files an earlier plot or report wrote into the folder (its manifest) are replaced or
    /// removed; any other file at a chart's or data file's name stops the command before it
    /// writes anything. The data files are written beside their names first and renamed once all
    /// are written, so a full disk leaves the earlier data whole.
    func draw() throws -> [String] {
        if noCharts { return [] }
        let folder = out.hasSuffix("/") ? out : out + "/"
        let dataFolder = folder + "data"
        var manifest = ChartManifest(folder: folder)
        let imageNames = data.charts.flatMap { chart in ["png", "svg"].map { "\(chart.name).\($0)" } }
        let dataNames = data.charts.map { "data/\($0.name).dat" } + ["data/vars.gp"]
        let foreign = manifest.foreign(imageNames + dataNames)
        guard foreign.isEmpty else {
            throw CommandError(
                message:
                    "\(command): --out \(out) holds \(foreign.count) file\(foreign.count == 1 ? "" : "s") loadgen did "
                    + "not write there (\(foreign.prefix(4).joined(separator: ", "))\(foreign.count > 4 ? ", …" : "")); "
                    + "give another --out, or move them", exitCode: ExitCode.cannotCreate)
        }
        try Self.makeFolders(dataFolder)
        // A chart an earlier plot drew into this folder and this one does not (its data is
        // gone) must not stay beside the new ones as if it were theirs.
        for name in imageNames { manifest.removeOwned(name) }
        let staged = try stageData(in: folder, manifest: &manifest)
        for file in staged {
            guard Posix.rename(file.temporary, folder + file.name) == 0 else {
                throw CommandError(
                    message: "cannot write \(folder + file.name): \(String(cString: strerror(errno)))",
                    exitCode: ExitCode.ioError)
            }
            manifest.record(file.name)
        }
        try manifest.save()
        if dataOnly { return staged.map { folder + $0.name } }
        let formats = format == "both" ? ["png", "svg"] : [format]
        for chart in data.charts where chart.data != nil { for f in formats { manifest.record("\(chart.name).\(f)") } }
        defer { try? manifest.save() }
        try runGnuplot(data: dataFolder, out: folder)
        var written: [String] = []
        for chart in data.charts where chart.data != nil {
            for f in formats {
                let path = "\(folder)\(chart.name).\(f)"
                guard FileManager.default.fileExists(atPath: path) else {
                    throw CommandError(message: "gnuplot did not write \(path)", exitCode: ExitCode.software)
                }
                written.append(path)
            }
        }
        try Self.checkImages(written)
        return written
    }

    /// Every chart's data and vars.gp written beside their names (a chart without data said as
    /// skipped, and its old data forgotten); on a failure nothing staged is left behind.
    private func stageData(in folder: String, manifest: inout ChartManifest) throws -> [(
        temporary: String, name: String
    )] {
        var staged: [(temporary: String, name: String)] = []
        do {
            for chart in data.charts {
                guard let text = chart.data else {
                    manifest.removeOwned("data/\(chart.name).dat")
                    if !chart.quiet {
                        FileHandle.standardError.write(
                            Data("loadgen: skipped \(chart.name) (\(chart.title)): \(chart.skipped ?? "")\n".utf8))
                    }
                    continue
                }
                staged.append((try stage(text, as: "data/\(chart.name).dat", in: folder), "data/\(chart.name).dat"))
            }
            staged.append((try stage(data.variables, as: "data/vars.gp", in: folder), "data/vars.gp"))
        } catch {
            for file in staged { Posix.unlink(file.temporary) }
            throw error
        }
        return staged
    }

    /// Writes `text` beside `name` (a temporary name in the same folder), for a rename once
    /// every file is written. A failed write removes its own partial file.
    private func stage(_ text: String, as name: String, in folder: String) throws -> String {
        let temporary = folder + name + ".partial-\(Posix.processID)"
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            Posix.unlink(temporary)
            throw CommandError(
                message: "cannot write \(folder + name): \((error as NSError).localizedFailureReason ?? "\(error)"); "
                    + "is the disk full? (the earlier data is untouched)", exitCode: ExitCode.ioError)
        }
        return temporary
    }

    /// `mkdir -p`, with the system's reason when a part cannot be made (Foundation's error on
    /// Linux reads "NSCocoaErrorDomain error 512").
    static func makeFolders(_ path: String) throws {
        var made = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            made += "/" + part
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: made, isDirectory: &isFolder) {
                guard isFolder.boolValue else {
                    throw CommandError(
                        message: "cannot create \(path): \(made) is a file", exitCode: ExitCode.cannotCreate)
                }
                continue
            }
            guard Posix.mkdir(made, 0o755) == 0 || errno == EEXIST else {
                throw CommandError(
                    message: "cannot create \(path): \(String(cString: strerror(errno)))",
                    exitCode: ExitCode.cannotCreate)
            }
        }
    }

    /// gnuplot exits 0 when the disk fills under it, leaving empty or cut images: each image
    /// must end as its format ends (PNG's IEND chunk, SVG's closing tag). Broken ones are
    /// removed (loadgen wrote them) and the command fails naming them.
    static func checkImages(_ paths: [String]) throws {
        let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        var broken: [String] = []
        for path in paths {
            let data = FileManager.default.contents(atPath: path) ?? Data()
            let whole =
                path.hasSuffix(".png")
                ? data.count > pngEnd.count && Array(data.suffix(pngEnd.count)) == pngEnd
                : String(decoding: data.suffix(64), as: UTF8.self).contains("</svg>")
            if !whole {
                broken.append("\(path) (\(data.count) bytes)")
                Posix.unlink(path)
            }
        }
        guard broken.isEmpty else {
            throw CommandError(
                message: "gnuplot left \(broken.count) chart\(broken.count == 1 ? "" : "s") empty or cut: "
                    + broken.joined(separator: ", ") + "; is the disk full? (removed)", exitCode: ExitCode.ioError)
        }
    }

    /// Runs gnuplot through Host's `posix_spawn` (Foundation's `Process` crashed when the system
    /// refused it a thread, `ulimit -v 100000`: issue 55, item 9); the compiled-in script goes
    /// through a pipe gnuplot opens as a file (`/dev/stdin`, not "-": read as a file, its blocks
    /// may span lines), so nothing is written anywhere.
    private func runGnuplot(data: String, out: String) throws {
        guard let script, let gnuplot = Self.gnuplot else { return }
        let variables = "data='\(data)'; out='\(out)'; format='\(format)'"
        guard case .embedded = script else {
            if case .given(let path) = script {
                try Self.wait(try Self.start(gnuplot, [variables, path], command: command), script, command)
            }
            return
        }
        var fds: [Int32] = [0, 0]
        guard Posix.pipe(&fds) == 0 else {
            throw CommandError(
                message: "\(command): cannot open a pipe to gnuplot: \(String(cString: strerror(errno)))",
                exitCode: ExitCode.osError)
        }
        let pid: pid_t
        do { pid = try Self.start(gnuplot, [variables, "/dev/stdin"], command: command, input: fds) } catch {
            Posix.close(fds[0])
            Posix.close(fds[1])
            throw error
        }
        Posix.close(fds[0])
        // gnuplot may end before it reads it all (a bad -e): a failed write is its status's to say.
        Posix.ignore(SIGPIPE)
        PackageResources.plots_gnuplot.withUnsafeBytes { bytes in _ = try? Posix.writeAll(fds[1], bytes) }
        Posix.close(fds[1])
        try Self.wait(pid, script, command)
    }

    /// Starts gnuplot with `-e variables` and the script, its standard input the pipe's read end
    /// when `input` is given; a system that refuses the process is said as a limit (71).
    private static func start(_ gnuplot: String, _ arguments: [String], command: String, input: [Int32]? = nil) throws
        -> pid_t
    {
        let actions: [Spawn.FileAction] = input.map { [.duplicate($0[0], to: 0), .close($0[1])] } ?? []
        switch Spawn.start(gnuplot, arguments: ["gnuplot", "-e"] + arguments, actions: actions, defaultSignals: true) {
        case .success(let pid): return pid
        case .failure(let error):
            throw CommandError(
                message: "\(command): cannot start gnuplot: \(error.description) (a process limit such as ulimit -v "
                    + "or ulimit -u may be too low; raise it, or write the charts' data only with --data-only)",
                exitCode: ExitCode.osError)
        }
    }

    /// Waits for gnuplot; its failure is named by its exit status or the signal that ended it,
    /// and a memory limit set on the process (`ulimit -v`, under which gnuplot cannot start its
    /// threads) is said as the likely cause (71).
    private static func wait(_ pid: pid_t, _ script: Script, _ command: String) throws {
        let status = Spawn.wait(pid)
        guard status != 0 else { return }
        let how = status > 128 ? "killed by signal \(status - 128)" : "exit status \(status)"
        if let bytes = EnvironmentFailure.addressSpaceLimit {
            throw CommandError(
                message: "\(command): gnuplot failed on \(script.name) (\(how)) under a memory limit of "
                    + "\(bytes / 1024) KB (ulimit -v): raise it (ulimit -v unlimited), or write the charts' data "
                    + "only with --data-only", exitCode: ExitCode.osError)
        }
        throw CommandError(
            message: "\(command): gnuplot failed on \(script.name) (\(how)); its messages are above",
            exitCode: ExitCode.software)
    }

    /// The gnuplot script charts are drawn with: `--script FILE`, or the one compiled into loadgen
    /// (never the current folder's: a downloaded results bundle may carry a `plots.gnuplot` whose
    /// `system(…)` lines would run; issue 55, item 4).
    enum Script {
        case given(String)
        case embedded

        var name: String {
            switch self {
            case .given(let path): return path
            case .embedded: return "loadgen's plots.gnuplot"
            }
        }
    }

    // MARK: Finding things

    static var gnuplot: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/gnuplot" }.first { Posix.access($0, X_OK) == 0 }
    }

    /// `--script FILE`, or the script compiled into loadgen.
    private static func findScript(_ given: String?, command: String) throws -> Script {
        guard gnuplot != nil else {
            let without =
                command == "report"
                ? "or write the page without charts with --no-charts"
                : "or write the charts' data only with --data-only"
            throw CommandError(
                message: "\(command): gnuplot is not installed; install it with scripts/setup "
                    + "(or: apt-get install gnuplot-nox), \(without)", exitCode: ExitCode.unavailable)
        }
        guard let given else { return .embedded }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: given, isDirectory: &isFolder) else {
            throw CommandError(message: "\(command): --script \(given) does not exist", exitCode: ExitCode.noInput)
        }
        guard !isFolder.boolValue else {
            throw CommandError(
                message: "\(command): --script \(given) is a folder; give the gnuplot script file",
                exitCode: ExitCode.noInput)
        }
        return .given(given)
    }

    /// The rows of every file, refused (65) when a run id is read twice: rows appended twice, or
    /// one file given twice, would count their repetitions double (compare refuses them too).
    static func distinctRuns(_ files: [(path: String, rows: [ResultRow])], command: String) throws -> [ResultRow] {
        var ledger = RunIDLedger()
        for (path, rows) in files {
            ledger.begin(path)
            for (i, row) in rows.enumerated() {
                if let twice = ledger.add(row.identity.runID) {
                    throw CommandError(message: "\(command): \(path):\(i + 2): \(twice)", exitCode: ExitCode.dataError)
                }
            }
        }
        // One file's rows as they are: flattening copied every row once more.
        return files.count == 1 ? files[0].rows : files.flatMap(\.rows)
    }

    /// The rows of a results file; a foreign, empty or cut file is exit 65 naming file and line.
    static func results(_ path: String, command: String) throws -> [ResultRow] {
        try reading(path, command: command) { () throws(CompareError) in try ResultsReader.rows(path) }
    }

    /// Runs `read`, turning a file that cannot be read into exit 66 and a bad one into exit 65.
    static func reading<T>(_ path: String, command: String, _ read: () throws(CompareError) -> T) throws -> T {
        do {
            return try read()
        } catch {
            switch error {
            case .unreadable(let why): throw CommandError(message: "\(command): \(why)", exitCode: ExitCode.noInput)
            default: throw CommandError(message: "\(command): \(error)", exitCode: ExitCode.dataError)
            }
        }
    }

    /// The samples of a timeline file, checked like a results file.
    static func timeline(_ path: String, command: String) throws -> [[String: String]] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandError(message: "\(command): cannot read --timeline \(path)", exitCode: ExitCode.noInput)
        }
        let header = TimelineWriter.fileHeader.components(separatedBy: ",")
        guard let records = try? CSV.parse(String(decoding: data, as: UTF8.self)), records.first == header else {
            throw CommandError(
                message:
                    "\(command): \(path):1: not a loadgen timeline of this version (expected \"\(TimelineWriter.fileHeader)\")",
                exitCode: ExitCode.dataError)
        }
        var samples: [[String: String]] = []
        for (i, record) in records.dropFirst().enumerated() where record != [""] {
            guard record.count == header.count else {
                throw CommandError(
                    message:
                        "\(command): \(path):\(i + 2): the sample has \(record.count) fields, the header \(header.count)",
                    exitCode: ExitCode.dataError)
            }
            samples.append(Dictionary(uniqueKeysWithValues: zip(header, record)))
        }
        return samples
    }
}

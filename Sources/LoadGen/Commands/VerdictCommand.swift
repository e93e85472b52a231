import Foundation
import Host
import Report

/// `loadgen verdict --work FILE --time FILE`: the gate's verdict for a pull request, from the JSON
/// `compare --json` and `ab --json` wrote: the comment (Markdown, one per pull request, found
/// again by its first line) or GitHub's error annotations, one per regression.
enum VerdictCommand {
    static let about = "Render the pull-request gate's verdict from compare's and ab's JSON: a comment, or annotations."

    static let specs: [OptionSpec] = [
        .option("--work", "FILE", "the work part's verdict (compare --json)"),
        .option("--time", "FILE", "the wall-time part's verdict (ab --json)"),
        .option(
            "--format", "comment|annotations", "the pull request's comment (Markdown) or GitHub's ::error lines",
            default: "comment"),
        .option("--link", "URL", "where the full report is (the workflow run), linked from the comment"),
    ]

    static func main(_ arguments: [String]) throws -> Int32 {
        if arguments.contains("--help") {
            print(
                Help.render(
                    usage: "loadgen verdict [--work FILE] [--time FILE] [--format comment|annotations] [--link URL]",
                    about: about, specs: specs,
                    footer: "A part whose file is missing (its step did not run) is said to be not judged.\n"
                        + "Example: loadgen verdict --work ab/work.json --time ab/ab.json --link \"$RUN_URL\" > comment.md"
                ),
                terminator: "")
            return ExitCode.success
        }
        let a = try Arguments(command: "verdict", arguments: arguments, specs: specs)
        try a.refusePositional()
        let format = try a.choice("--format", ["comment", "annotations"], default: "comment")
        guard a.has("--work") || a.has("--time") else {
            throw CommandError.usage("verdict: give --work FILE (compare --json), --time FILE (ab --json), or both")
        }
        let work = try read(a.string("--work"), tool: "compare", flag: "--work")
        let time = try read(a.string("--time"), tool: "ab", flag: "--time")
        print(
            format == "annotations"
                ? GateVerdict.annotations(work: work, time: time)
                : GateVerdict.comment(
                    work: work, time: time, link: a.string("--link").flatMap { $0.isEmpty ? nil : $0 }), terminator: "")
        return ExitCode.success
    }

    /// The verdict at `path`; nil when the path is not given or nothing is there (the part did
    /// not run: the comment says so); a file that is there and cannot be read is no input (66),
    /// not a part that did not run; one that is not `tool`'s verdict is refused (65).
    static func read(_ path: String?, tool: String, flag: String) throws -> [String: Any]? {
        guard let path else { return nil }
        var info = stat()
        guard Posix.lstat(path, &info) == 0 else { return nil }
        // Non-blocking: a FIFO without a writer would hold the open forever.
        let fd = Posix.open(path, O_RDONLY | O_NONBLOCK)
        let why =
            fd < 0
            ? "cannot be read: " + String(cString: strerror(errno))
            : Posix.fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR ? "is a folder" : nil
        if let why {
            if fd >= 0 { Posix.close(fd) }
            throw CommandError(
                message: "verdict: \(flag) \(path) \(why); give the file 'loadgen \(tool) --json' wrote",
                exitCode: ExitCode.noInput)
        }
        Posix.setStatusFlags(fd, 0)
        let data = FileHandle(fileDescriptor: fd, closeOnDealloc: true).readDataToEndOfFile()
        guard let object = GateVerdict.read(data, tool: tool) else {
            throw CommandError(
                message: "verdict: \(flag) \(path) is not what 'loadgen \(tool) --json' writes",
                exitCode: ExitCode.dataError)
        }
        return object
    }
}

import Foundation
import Testing

/// Reliability, round 4 (issue 27): a model file is untrusted input, no file a command did not
/// write is lost, keys are exact, odd models and sizes are refused instead of crashed on.
@Suite(.serialized) struct ReliabilityRound4Tests {
    static let podcasts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples/Podcasts.xcdatamodeld").standardized.path

    /// The probe's injection: an attribute whose name ends one statement and starts others. It is
    /// refused where the file says it, exit 65, before any repetition: no PWNED.DB, no row.
    @Test func aModelsNamesNeverReachSQL() throws {
        let dir = CLI.makeFolder()
        let evil = "x VARCHAR); ATTACH DATABASE 'PWNED.DB' AS P; CREATE TABLE P.T(X); --"
        let text = ModelCommandTests.loose.replacingOccurrences(of: #"name="title""#, with: "name=\"\(evil)\"")
        let model = ModelCommandTests.model(text, in: dir), out = dir + "/runs.csv"
        let r = try CLI.run(["run", "--model", model, "--entity", "Post", "--strategy", "one-writer,raw-sqlite", "--rows", "100",
                             "--out", out], tmpdir: dir, cwd: dir)
        #expect(r.status == 65 && r.stderr.contains("contents:5: Post: property name \"x VARCHAR);"), "\(r.stderr)")
        #expect(r.stderr.contains("may hold only letters, digits and underscores"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/PWNED.DB") && !FileManager.default.fileExists(atPath: out))
    }

    /// A to-one found by an attribute its destination does not keep unique, while another one
    /// is: refused when the roles are read, naming the constrained key, nothing run.
    @Test func aRelatedObjectIsFoundByItsConstrainedKey() throws {
        let dir = CLI.makeFolder(), out = dir + "/runs.csv"
        let r = try CLI.run(["run", "--model", Self.podcasts, "--entity", "Episode", "--relationship", "podcast.title",
                             "--rows", "200", "--out", out], tmpdir: dir)
        #expect(r.status == 64 && r.stderr.contains("Podcast is kept unique by feedURL, not title")
                && r.stderr.contains("--relationship podcast.feedURL"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}

import Foundation
import Testing

@testable import Host

/// Issue 48, 3: a temporary folder is removed only when its owner is proven gone. A live owner
/// whose start time cannot be read keeps its folder (and is named), on every system.
@Suite struct OwnedFoldersTests {
    /// A base folder holding one `loadgen.*` folder per owner given.
    func base(_ owners: [String: String]) throws -> String {
        let base = NSTemporaryDirectory() + "host-tests-\(UUID().uuidString)"
        for (name, owner) in owners {
            try FileManager.default.createDirectory(atPath: base + "/" + name, withIntermediateDirectories: true)
            try owner.write(toFile: base + "/" + name + "/owner", atomically: true, encoding: .utf8)
        }
        return base
    }

    func remaining(_ base: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []).sorted()
    }

    @Test func aLiveOwnerWhoseStartTimeCannotBeReadKeepsItsFolder() throws {
        let folders = try base([
            "loadgen.live": "4242 1000\n", "loadgen.unknown": "4243 0\n", "loadgen.gone": "4244 1000\n",
        ])
        let (removed, kept) = OwnedFolders.sweep(
            in: folders, prefix: "loadgen.", ownerFile: "owner",
            exists: { $0 != 4244 }, startTime: { _ in nil })
        #expect(removed == 1 && remaining(folders) == ["loadgen.live", "loadgen.unknown"], "\(remaining(folders))")
        #expect(kept.map { URL(fileURLWithPath: $0).lastPathComponent } == ["loadgen.live", "loadgen.unknown"])
    }

    @Test func aReusedPidIsProvenGoneAndTheRightOneIsKeptSilently() throws {
        let folders = try base(["loadgen.reused": "4242 1000\n", "loadgen.mine": "4243 2000\n", "not-ours": "4244 1\n"])
        let (removed, kept) = OwnedFolders.sweep(
            in: folders, prefix: "loadgen.", ownerFile: "owner",
            exists: { _ in true }, startTime: { $0 == 4242 ? 9999 : 2000 })
        #expect(
            removed == 1 && kept.isEmpty && remaining(folders) == ["loadgen.mine", "not-ours"], "\(remaining(folders))")
    }

    /// This process, as the system answers: alive, its own start time read back.
    @Test func thisProcessIsItsOwnLiveOwner() {
        let me = ProcessOwner.current
        #expect(me.status() == .alive)
        #expect(ProcessOwner(text: me.text) == me)
        #expect(ProcessOwner(text: "not an owner") == nil)
        #if os(Linux)
            #expect(me.startTime > 0, "Linux reads /proc/self/stat")
        #endif
    }
}

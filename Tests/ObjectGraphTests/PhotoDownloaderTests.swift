import Foundation
import Testing

@testable import ObjectGraph

// The photo downloader of the code-review seed (one writer context, parallel downloads, a
// screen's view context that merges), rebuilt on loadgen's engine, with the seed's tests.

protocol PhotoDownloading: Sendable {
    func imageData(from url: String) async throws -> [UInt8]
}

struct DownloadFailed: Error {}

/// No network: answers at once, and can fail for one URL.
struct FakeDownloader: PhotoDownloading {
    var failing: String? = nil
    func imageData(from url: String) async throws -> [UInt8] {
        if url == failing { throw DownloadFailed() }
        return Array(url.utf8)
    }
}

/// Downloads in parallel, saves one at a time through ONE background context.
final class PhotoDownloader: Sendable {
    let context: ManagedObjectContext
    let downloader: any PhotoDownloading

    init(container: PersistentContainer, downloader: any PhotoDownloading) {
        container.viewContext.automaticallyMergesChangesFromParent = true
        context = container.newBackgroundContext(name: "writer")
        context.mergePolicy = .mergeByPropertyObjectTrump
        self.downloader = downloader
    }

    /// Returns the saved photos' IDs and the URLs that failed.
    func download(_ urls: [String], into albumID: ManagedObjectID) async throws -> (
        saved: [ManagedObjectID], failed: [String]
    ) {
        var saved: [ManagedObjectID] = []
        var failed: [String] = []
        try await withThrowingTaskGroup(of: (String, [UInt8]?).self) { group in
            for url in urls {
                group.addTask { [downloader] in (url, try? await downloader.imageData(from: url)) }
            }
            for try await (url, data) in group {
                guard let data else {
                    failed.append(url)
                    continue
                }
                saved.append(try await save(data, from: url, albumID: albumID))
            }
        }
        return (saved, failed)
    }

    func markAllSeen() async throws {
        try await context.perform { [context] in
            for photo in try context.fetch(FetchRequest(entityName: "Photo")) { photo["isSeen"] = true }
            try context.save()
        }
    }

    private func save(_ data: [UInt8], from url: String, albumID: ManagedObjectID) async throws -> ManagedObjectID {
        try await context.perform { [context] in
            let album = try context.existingObject(with: albumID)
            var request = FetchRequest(entityName: "Photo", predicate: .equal("remoteURL", url))
            request.fetchLimit = 1
            let photo = try context.fetch(request).first ?? context.insertNewObject(forEntityName: "Photo")
            photo["remoteURL"] = .string(url)
            photo["imageData"] = .data(data)
            try photo.setObject(album, forKey: "album")
            do { try context.save() } catch {
                context.rollback()
                throw error
            }
            return photo.objectID
        }
    }
}

/// No time limit: on a loaded machine a suspended test may wait minutes for a thread, and a
/// limit that load can trip fails a correct test (issue 45).
@Suite
struct PhotoDownloaderTests {
    let urls = (0..<10).map { "https://example.com/\($0).jpg" }

    func setUp(failing: String? = nil) throws -> (PersistentContainer, ManagedObject, PhotoDownloader) {
        let container = try makeContainer(BundledModels.photos(key: .indexed))
        let view = container.viewContext
        let album = try view.performAndWait {
            let album = try view.insertNewObject(forEntityName: "Album")
            album["name"] = "Holiday"
            try view.save()   // a saved object has a permanent ID
            return album
        }
        return (container, album, PhotoDownloader(container: container, downloader: FakeDownloader(failing: failing)))
    }

    func photos(of album: ManagedObject, in container: PersistentContainer) -> Set<ManagedObject> {
        container.viewContext.performAndWait { album.objects(forKey: "photos") }
    }

    func albumID(_ album: ManagedObject, _ container: PersistentContainer) -> ManagedObjectID {
        container.viewContext.performAndWait { album.objectID }
    }

    @Test func screenSeesDownloadedPhotosWithoutRefetching() async throws {
        let (container, album, downloader) = try setUp()
        #expect(photos(of: album, in: container).isEmpty)   // the screen has looked: no photos yet
        let (saved, failed) = try await downloader.download(urls, into: albumID(album, container))
        try await container.viewContext.perform {}   // let merges already queued run first
        #expect(failed.isEmpty && saved.count == 10)
        #expect(photos(of: album, in: container).count == 10)
        let view = container.viewContext
        try view.performAndWait {
            for id in saved {
                let photo = try view.existingObject(with: id)
                #expect(photo["remoteURL"] != .null)
            }
        }
    }

    @Test func failedDownloadIsSkippedAndReported() async throws {
        let broken = urls[3]
        let (container, album, downloader) = try setUp(failing: broken)
        let (saved, failed) = try await downloader.download(urls, into: albumID(album, container))
        try await container.viewContext.perform {}
        #expect(failed == [broken] && saved.count == 9)
        #expect(photos(of: album, in: container).count == 9)
    }

    @Test func downloadingTheSameURLTwiceGivesOneRow() async throws {
        let (container, album, downloader) = try setUp()
        _ = try await downloader.download(urls + urls.prefix(3), into: albumID(album, container))
        let view = container.viewContext
        #expect(try view.performAndWait { try view.count(for: FetchRequest(entityName: "Photo")) } == 10)
        #expect(try container.rows("SELECT count(*) FROM ZPHOTO") == 10)
    }

    @Test func markAllSeenReachesTheScreen() async throws {
        let (container, album, downloader) = try setUp()
        _ = try await downloader.download(urls, into: albumID(album, container))
        try await container.viewContext.perform {}
        let view = container.viewContext
        #expect(view.performAndWait { album.objects(forKey: "photos").allSatisfy { $0["isSeen"] == false } })
        try await downloader.markAllSeen()
        try await view.perform {}
        #expect(view.performAndWait { album.objects(forKey: "photos").count } == 10)
        #expect(view.performAndWait { album.objects(forKey: "photos").allSatisfy { $0["isSeen"] == true } })
    }

    @Test func relatingObjectsOfTwoContextsFails() throws {
        let (container, album, _) = try setUp()
        let other = container.newBackgroundContext(name: "downloader")
        let error = other.performAndWait { () -> Error? in
            let photo = try? other.insertNewObject(forEntityName: "Photo")
            do {
                try photo?.setObject(album, forKey: "album")
                return nil
            } catch { return error }
        }
        let message = error.map { "\($0)" } ?? ""
        #expect(
            message.contains(
                "Illegal attempt to establish a relationship 'album' between objects in different contexts"))
    }
}

/// The seed's original, buggy downloader: a new background context per download, each checking
/// "is this URL saved?" and inserting when not. Downloads of one URL that finish together each
/// see no row, and each inserts one.
@Suite struct BuggyPhotoDownloaderTests {
    /// Three downloads of each of 5 URLs; every download looks its URL up before any saves
    /// (a barrier makes the race certain): 3 rows per URL, where the fixed downloader keeps 1.
    @Test func oneContextPerDownloadDuplicatesEveryRacingURL() throws {
        let container = try makeContainer(BundledModels.photos(key: .indexed))
        let urls = (0..<5).map { "https://example.com/\($0).jpg" }
        let downloads = urls + urls + urls
        let lookedUp = DispatchGroup()
        for _ in downloads { lookedUp.enter() }
        let done = DispatchGroup()
        for url in downloads {
            done.enter()
            let context = container.newBackgroundContext(name: "download-\(url)")   // the bug: one per download
            Thread {
                context.performAndWait {
                    var request = FetchRequest(entityName: "Photo", predicate: .equal("remoteURL", url))
                    request.fetchLimit = 1
                    let existing = (try? context.fetch(request))?.first
                    lookedUp.leave()
                    lookedUp.wait()   // everyone has looked before anyone saves
                    let photo = existing ?? (try? context.insertNewObject(forEntityName: "Photo"))
                    photo?["remoteURL"] = .string(url)
                    photo?["imageData"] = .data(Array(url.utf8))
                    try? context.save()
                }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(try container.rows("SELECT count(*) FROM ZPHOTO") == 15)
        #expect(try container.rows("SELECT count(DISTINCT ZREMOTEURL) FROM ZPHOTO") == 5)
    }
}

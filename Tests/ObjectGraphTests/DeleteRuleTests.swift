import Foundation
import SQLiteKit
import Testing

@testable import ObjectGraph

/// Delete rules acted on (issue 41, item 11): a context's delete propagates as
/// `-[NSManagedObject _propagateDelete:]` does, a batch delete through the temporary triggers of
/// `generateTriggerForEntity:…`; Deny refuses.
@Suite struct DeleteRuleTests {
    /// Folder.bookmarks cascades to Bookmark, whose notes cascade to Note; Folder.owner nullifies
    /// (the owner's folders lose it); Folder.lock denies when `deny` (else no action).
    static func model(deny: Bool = false) throws -> ManagedObjectModel {
        func r(
            _ name: String, _ to: String, _ inverse: String, many: Bool = false,
            _ rule: RelationshipDescription.DeleteRule = .nullify
        ) -> RelationshipDescription {
            var d = RelationshipDescription(name, to: to, inverse: inverse, toMany: many)
            d.deleteRule = rule
            return d
        }
        return try ManagedObjectModel([
            EntityDescription(
                "Folder", attributes: [AttributeDescription("name", .string)],
                relationships: [
                    r("bookmarks", "Bookmark", "folder", many: true, .cascade), r("owner", "Owner", "folders"),
                    r("lock", "Lock", "folder", deny ? .deny : .noAction),
                ]),
            EntityDescription(
                "Bookmark", attributes: [AttributeDescription("url", .string)],
                relationships: [
                    r("folder", "Folder", "bookmarks"), r("notes", "Note", "bookmark", many: true, .cascade),
                ]),
            EntityDescription(
                "Note", attributes: [AttributeDescription("text", .string)],
                relationships: [r("bookmark", "Bookmark", "notes")]),
            EntityDescription(
                "Owner", attributes: [AttributeDescription("name", .string)],
                relationships: [r("folders", "Folder", "owner", many: true)]),
            EntityDescription(
                "Lock", attributes: [AttributeDescription("code", .string)],
                relationships: [r("folder", "Folder", "lock")]),
        ])
    }

    /// Two folders of one owner, three bookmarks each with two notes; the first folder locked.
    func seed(_ container: PersistentContainer, locked: Bool = false) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let owner = try context.insertNewObject(forEntityName: "Owner")
            for f in 0..<2 {
                let folder = try context.insertNewObject(forEntityName: "Folder")
                folder["name"] = .string("f\(f)")
                try folder.setObject(owner, forKey: "owner")
                if locked && f == 0 {
                    try folder.setObject(try context.insertNewObject(forEntityName: "Lock"), forKey: "lock")
                }
                for b in 0..<3 {
                    let bookmark = try context.insertNewObject(forEntityName: "Bookmark")
                    bookmark["url"] = .string("u\(f)-\(b)")
                    try bookmark.setObject(folder, forKey: "folder")
                    for n in 0..<2 {
                        let note = try context.insertNewObject(forEntityName: "Note")
                        note["text"] = .string("n\(n)")
                        try note.setObject(bookmark, forKey: "bookmark")
                    }
                }
            }
            try context.save()
        }
    }

    func counts(_ c: PersistentContainer) throws -> [Int] {
        try ["ZFOLDER", "ZBOOKMARK", "ZNOTE", "ZOWNER"].map { try c.rows("SELECT count(*) FROM \($0)") }
    }

    @Test func aContextDeleteCascadesThroughTheChainAndNullifiesTheRest() throws {
        let container = try makeContainer(try Self.model())
        try seed(container)
        let context = container.newBackgroundContext()
        container.counters.startRecording()
        try context.performAndWait {
            let folder = try #require(
                try context.fetch(FetchRequest(entityName: "Folder", predicate: .equal("name", "f0"))).first)
            context.delete(folder)
            try context.save()
        }
        let sql = lastTransaction(container.counters.stopRecording())
        #expect(try counts(container) == [1, 3, 6, 1])
        #expect(sql.filter { $0 == "DELETE FROM ZBOOKMARK WHERE Z_PK = ? AND Z_OPT = ?" }.count == 3, "\(sql)")
        #expect(sql.filter { $0 == "DELETE FROM ZNOTE WHERE Z_PK = ? AND Z_OPT = ?" }.count == 6, "\(sql)")
        #expect(try container.rows("SELECT Z_OPT FROM ZOWNER") == 2, "the owner that lost a folder is updated")
        #expect(
            try container.rows("SELECT count(*) FROM ZNOTE WHERE ZBOOKMARK NOT IN (SELECT Z_PK FROM ZBOOKMARK)") == 0)
    }

    @Test func aBatchDeleteCascadesThroughTriggersOnEachTable() throws {
        let container = try makeContainer(try Self.model())
        try seed(container)
        let context = container.newBackgroundContext()
        container.counters.startRecording()
        try context.performAndWait {
            _ = try context.execute(BatchDeleteRequest(entityName: "Folder", predicate: .equal("name", "f0")))
        }
        let sql = container.counters.stopRecording()
        #expect(try counts(container) == [1, 3, 6, 1])
        #expect(
            sql.contains(
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZFOLDER_TRIGGER AFTER DELETE ON ZFOLDER FOR EACH ROW BEGIN "
                    + "UPDATE OR FAIL ZOWNER SET Z_OPT = (Z_OPT + 1) WHERE Z_PK = OLD.ZOWNER; "
                    + "DELETE FROM ZBOOKMARK WHERE ZFOLDER = OLD.Z_PK; END"), "\(sql)")
        // A cascaded table's trigger carries every rule of its own (`generateTriggerForEntity:` recurses).
        #expect(
            sql.contains(
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZBOOKMARK_TRIGGER AFTER DELETE ON ZBOOKMARK FOR EACH ROW BEGIN "
                    + "UPDATE OR FAIL ZFOLDER SET Z_OPT = (Z_OPT + 1) WHERE Z_PK = OLD.ZFOLDER; "
                    + "DELETE FROM ZNOTE WHERE ZBOOKMARK = OLD.Z_PK; END"), "\(sql)")
        #expect(
            sql.contains(
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS ZQ_ZNOTE_TRIGGER AFTER DELETE ON ZNOTE FOR EACH ROW BEGIN "
                    + "UPDATE OR FAIL ZBOOKMARK SET Z_OPT = (Z_OPT + 1) WHERE Z_PK = OLD.ZBOOKMARK; END"), "\(sql)")
        #expect(
            sql.contains("DROP TRIGGER IF EXISTS ZQ_ZBOOKMARK_TRIGGER")
                && sql.contains("DROP TRIGGER IF EXISTS ZQ_ZFOLDER_TRIGGER"))
        #expect(try container.rows("SELECT Z_OPT FROM ZOWNER") == 2)
    }

    @Test func denyRefusesADeleteWhileTheRelationshipHoldsAnObject() throws {
        let container = try makeContainer(try Self.model(deny: true))
        try seed(container, locked: true)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let folders = try context.fetch(FetchRequest(entityName: "Folder"))
            let locked = try #require(folders.first { $0["name"] == .string("f0") })
            context.delete(locked)
            #expect { try context.save() } throws: {
                "\($0)".contains("Folder.lock denies the delete") && "\($0)".contains("1600")
            }
            context.rollback()
            context.delete(try #require(folders.first { $0["name"] == .string("f1") }))
            try context.save()
        }
        #expect(try counts(container) == [1, 3, 6, 1])
        // A batch delete cannot honour Deny: Core Data refuses the request (134060).
        _ = context.performAndWait {
            #expect { _ = try context.execute(BatchDeleteRequest(entityName: "Folder")) } throws: {
                "\($0)".contains("Delete rule is not supported for batch deletes (134060): Folder.lock")
            }
        }
        #expect(try counts(container) == [1, 3, 6, 1])
    }
}

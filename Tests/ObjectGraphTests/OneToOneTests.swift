import Foundation
import Testing

@testable import ObjectGraph

/// One-to-one relationships (a to-one whose inverse is a to-one): both rows keep a column, and
/// the context keeps them in step, as Core Data's inverse maintenance does.
@Suite struct OneToOneTests {
    /// A file and its download task, each pointing at the other (the offline reader's model).
    func makeFiles() throws -> PersistentContainer {
        let model = try ManagedObjectModel([
            EntityDescription(
                "File", attributes: [.init("name", .string)],
                relationships: [RelationshipDescription("task", to: "Task", inverse: "file")]),
            EntityDescription(
                "Task", attributes: [.init("bytes", .integer64)],
                relationships: [RelationshipDescription("file", to: "File", inverse: "task")]),
        ])
        return try makeContainer(model)
    }

    /// Setting one side sets the other; giving the task to a second file takes it from the
    /// first, whose column is cleared; the store holds both columns consistently.
    @Test func settingOneSideSetsTheOtherAndAPartnerIsTakenNotShared() throws {
        ConcurrencyDebug.isEnabled = true
        let container = try makeFiles()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let a = try context.insertNewObject(forEntityName: "File")
            let b = try context.insertNewObject(forEntityName: "File")
            let task = try context.insertNewObject(forEntityName: "Task")
            try a.setObject(task, forKey: "task")
            #expect(task.object(forKey: "file") === a)
            try b.setObject(task, forKey: "task")
            #expect(task.object(forKey: "file") === b)
            #expect(a.object(forKey: "task") == nil)
            try context.save()
        }
        #expect(
            try container.rows("SELECT count(*) FROM ZFILE f JOIN ZTASK t ON t.Z_PK = f.ZTASK AND t.ZFILE = f.Z_PK")
                == 1)
        #expect(try container.rows("SELECT count(*) FROM ZFILE WHERE ZTASK IS NULL") == 1)
        #expect(try container.rows("SELECT count(*) FROM ZTASK WHERE ZFILE IS NOT NULL") == 1)
    }

    /// A saved pair changed from a fresh context: the task's side, a fault until then, is fired
    /// and written with the file's new partner, and the old partner lets go; deleting a file
    /// nullifies its task's column.
    @Test func aSavedPairIsKeptInStepAcrossFaultsAndDeletes() throws {
        ConcurrencyDebug.isEnabled = true
        let container = try makeFiles()
        let writer = container.newBackgroundContext()
        let (fileID, taskID) = try writer.performAndWait {
            let file = try writer.insertNewObject(forEntityName: "File")
            let task = try writer.insertNewObject(forEntityName: "Task")
            try task.setObject(file, forKey: "file")
            try writer.save()
            return (file.objectID, task.objectID)
        }
        let editor = container.newBackgroundContext()
        try editor.performAndWait {
            let file = try editor.existingObject(with: fileID)
            let replacement = try editor.insertNewObject(forEntityName: "Task")
            try file.setObject(replacement, forKey: "task")
            try editor.save()
        }
        #expect(try container.rows("SELECT count(*) FROM ZTASK WHERE Z_PK = \(taskID.key) AND ZFILE IS NULL") == 1)
        #expect(
            try container.rows("SELECT count(*) FROM ZFILE f JOIN ZTASK t ON t.Z_PK = f.ZTASK AND t.ZFILE = f.Z_PK")
                == 1)
        try editor.performAndWait {
            editor.delete(try editor.existingObject(with: fileID))
            try editor.save()
        }
        #expect(try container.rows("SELECT count(*) FROM ZTASK WHERE ZFILE IS NOT NULL") == 0)
    }
}

import SQLiteKit

/// How Core Data's batch insert and batch update learn the object IDs they return:
/// `NSSQLBatchOperationRequestContext createObjectIDCaptureStatementsForDrop:` (iOS 18.2,
/// decompiled) creates a temporary table and temporary triggers that record every row the
/// statement inserts or updates, the request then reads the table, and the same method with
/// `forDrop:YES` drops them, all inside the request's transaction.
///
/// - the table: `CREATE TEMP TABLE IF NOT EXISTS <name> (ENTITYID INTEGER, PRIMEKEY INTEGER,
///   TYPE INTEGER, ATTRIBUTENAME VARCHAR)`, named `TEMP_CDBATCHINSERTOBJECTIDS` or
///   `TEMP_CDBATCHUPDATEOBJECTIDS`;
/// - a batch insert: `ZQ_INSERT_<table name>_<entity>` AFTER INSERT records `NEW.Z_ENT,
///   NEW.Z_PK, 0`, and the update triggers below for every attribute (an upsert updates);
/// - update triggers: `ZQ_UPDATE_<table name>_<entity>` AFTER UPDATE records `OLD.Z_ENT,
///   OLD.Z_PK, 1`, and one per attribute (a batch update's `propertiesToUpdate`),
///   `ZQ_UPDATE_<table name>_<entity>_<attribute>` AFTER UPDATE … WHEN OLD.<column> IS NOT
///   NEW.<column>, records the row with the attribute's name.
///
/// How Core Data reads the table back (`gatherObjectIDsFromTable:`) is not visible: the engine
/// reads each recorded row once (`SELECT DISTINCT ENTITYID, PRIMEKEY`).
struct ObjectIDCapture {
    enum Operation: String {
        case insert = "TEMP_CDBATCHINSERTOBJECTIDS"
        case update = "TEMP_CDBATCHUPDATEOBJECTIDS"
    }

    /// The statements that set the capture up, in Core Data's order.
    let create: [String]
    /// The read of the captured rows.
    let gather: String
    /// The statements that take it down again.
    let drop: [String]

    /// The capture for `operation` on `entity`, with update triggers for `attributes` (indexes
    /// into `entity.attributes`).
    init(_ operation: Operation, entity e: Entity, attributes: [Int]) {
        let table = operation.rawValue
        var create = [
            "CREATE TEMP TABLE IF NOT EXISTS \(table) (ENTITYID INTEGER, PRIMEKEY INTEGER, TYPE INTEGER, ATTRIBUTENAME VARCHAR)"
        ]
        var drop = ["DROP TABLE IF EXISTS \(table)"]
        if operation == .insert {
            let name = SQLIdentifier.quoted("ZQ_INSERT_\(table)_\(e.name)")
            create.append(
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(name) AFTER INSERT ON \(e.tableName) FOR EACH ROW BEGIN "
                    + "INSERT INTO \(table) (ENTITYID, PRIMEKEY, TYPE) SELECT NEW.Z_ENT, NEW.Z_PK, 0; END")
            drop.append("DROP TRIGGER IF EXISTS \(name)")
        }
        let update = "ZQ_UPDATE_\(table)_\(e.name)"
        let updateName = SQLIdentifier.quoted(update)
        create.append(
            "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(updateName) AFTER UPDATE ON \(e.tableName) FOR EACH ROW BEGIN "
                + "INSERT INTO \(table) (ENTITYID, PRIMEKEY, TYPE) SELECT OLD.Z_ENT, OLD.Z_PK, 1; END")
        drop.append("DROP TRIGGER IF EXISTS \(updateName)")
        for i in attributes {
            let (attribute, column) = (e.attributes[i].name, e.attributeColumns[i])
            let name = SQLIdentifier.quoted("\(update)_\(attribute)")
            create.append(
                "CREATE TEMPORARY TRIGGER IF NOT EXISTS \(name) AFTER UPDATE ON \(e.tableName) FOR EACH ROW "
                    + "WHEN OLD.\(column) IS NOT NEW.\(column) BEGIN INSERT INTO \(table) (ENTITYID, PRIMEKEY, TYPE, "
                    + "ATTRIBUTENAME) SELECT OLD.Z_ENT, OLD.Z_PK, 1, \(SQLIdentifier.literal(attribute)); END")
            drop.append("DROP TRIGGER IF EXISTS \(name)")
        }
        self.create = create
        self.drop = drop
        gather = "SELECT DISTINCT ENTITYID, PRIMEKEY FROM \(table)"
    }

    /// Sets the capture up on `connection` (inside the request's transaction).
    func begin(_ connection: Connection) throws {
        for sql in create { try connection.statement(sql).run() }
    }

    /// Reads the captured rows' IDs, then drops the table and the triggers.
    func end(_ connection: Connection, store: UInt32) throws -> [ManagedObjectID] {
        let s = try connection.statement(gather)
        var ids: [ManagedObjectID] = []
        while try s.step() {
            ids.append(ManagedObjectID(store: store, entityID: Int(s.int(at: 0)), primaryKey: Int64(s.int(at: 1))))
        }
        s.reset()
        for sql in drop { try connection.statement(sql).run() }
        return ids
    }
}

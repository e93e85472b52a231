import Foundation
import Host

/// A Core Data model read from the files Xcode writes: a `.xcdatamodeld` folder (its current
/// version, named by `.xccurrentversion`), one `.xcdatamodel` version folder, or the XML file
/// named `contents` inside one.
///
/// What the engine can honour becomes an `EntityDescription` exactly as a bundled model would be
/// written in code; what it reads but does not act on is listed in `notes`, one line each with its
/// location; what it cannot honour is refused with its location (`ModelFileError`). Nothing is
/// guessed silently.
package struct ModelFile: Sendable {
    /// The XML file read.
    package let path: String
    /// The model's name: the `.xcdatamodeld` (or `.xcdatamodel`) folder's name, without extension.
    package let name: String
    /// The entities, as the engine builds its store from them.
    package let entities: [EntityDescription]
    /// One thing read and not honoured, and the entity it is about (nil: the whole model).
    package struct Note: Sendable, Equatable {
        package let entity: String?
        /// `path:line: …`
        package let text: String
    }

    /// What was read and not honoured, with the entity each is about.
    package let entityNotes: [Note]

    /// Every note (`path:line: …`).
    package var notes: [String] { entityNotes.map(\.text) }

    /// The notes a run on `entities` needs: those about the model as a whole and about these
    /// entities, not the others' (a run on one entity of a big model is not told about 15 others).
    package func notes(about entities: Set<String>) -> [String] {
        entityNotes.filter { note in note.entity.map(entities.contains) ?? true }.map(\.text)
    }

    /// The model, numbered and laid out as the engine uses it.
    package func model() throws -> ManagedObjectModel { try ManagedObjectModel(entities) }

    /// The entity named `name`.
    package func entity(named name: String) -> EntityDescription? { entities.first { $0.name == name } }

    /// The model as if `entity` had the uniqueness constraint `attributes` too (and its
    /// sub-entities, which inherit it): the what-if of adding one in Xcode, with a note.
    package func adding(constraint attributes: [String], to entity: String) -> ModelFile {
        let changed = entities.map { e in
            guard lineage(of: e).contains(entity), !e.uniquenessConstraints.contains(attributes) else { return e }
            var e = e
            e.uniquenessConstraints.append(attributes)
            return e
        }
        let note = Note(
            entity: entity,
            text: "\(path): \(entity) given the uniqueness constraint [\(attributes.joined(separator: ", "))] "
                + "(--add-constraint): the store is laid out as if the model had it")
        return ModelFile(path: path, name: name, entities: changed, entityNotes: entityNotes + [note])
    }

    /// The model as if `entity` had a fetch index over `attributes` too (Xcode's Fetch Indexes,
    /// named as Xcode names a new one, `by<Attribute>Index`): the what-if of adding one, with a
    /// note. Nothing changes when the entity has an index that already leads with them.
    package func adding(index attributes: [String], to entity: String) -> ModelFile {
        guard let target = self.entity(named: entity), !hasIndex(on: attributes, of: target) else { return self }
        let indexName = "by" + attributes.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined() + "Index"
        let changed = entities.map { e in
            guard e.name == entity else { return e }
            var e = e
            e.fetchIndexes.append(FetchIndexDescription(indexName, elements: attributes.map { ($0, true) }))
            return e
        }
        let note = Note(
            entity: entity,
            text: "\(path): \(entity) given the index \(indexName) on [\(attributes.joined(separator: ", "))] "
                + "(--add-index): the store is laid out as if the model had it")
        return ModelFile(path: path, name: name, entities: changed, entityNotes: entityNotes + [note])
    }

    /// Whether `entity`'s table has an index SQLite can seek `attributes` with: a uniqueness
    /// constraint, a fetch index or an indexed attribute of the entity or a parent whose leading
    /// columns are exactly these attributes (in any order, as an equality lookup uses them).
    package func hasIndex(on attributes: [String], of entity: EntityDescription) -> Bool {
        let wanted = Set(attributes)
        func leads(_ columns: [String]) -> Bool {
            columns.count >= wanted.count && Set(columns.prefix(wanted.count)) == wanted
        }
        for e in lineage(of: entity).compactMap(self.entity(named:)) {
            if e.uniquenessConstraints.contains(where: leads) { return true }
            if e.fetchIndexes.contains(where: { leads($0.elements.map(\.property)) }) { return true }
            if wanted.count == 1, e.attributes.contains(where: { $0.isIndexed && wanted.contains($0.name) }) {
                return true
            }
        }
        return false
    }

    /// `entity`'s name and its parents' names, nearest first.
    package func lineage(of entity: EntityDescription) -> [String] {
        var names = [entity.name]
        var parent = entity.parentEntity
        while let name = parent, !names.contains(name), let p = self.entity(named: name) {
            names.append(name)
            parent = p.parentEntity
        }
        return names
    }
}

extension ModelFile {
    /// The line of `entity`'s attribute `name` in the XML read, for a refusal that points at it
    /// (read again: only a refusal asks, and the model's entities keep no lines).
    package func line(ofAttribute name: String, in entity: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let root = try? ModelXML.parse(text)
        else { return nil }
        let element = root.children(named: "entity").first { $0["name"] == entity }
        return element?.children(named: "attribute").first { $0["name"] == name }?.line
    }
}

/// A model file that cannot be read or honoured: where, and what.
package struct ModelFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package var path: String
    package var line: Int?
    package var message: String
    /// Nothing is at the path, or nothing that can be read (sysexits' 66, "did not exist or was
    /// not readable"), rather than a model file that is wrong (65).
    package var isMissing = false

    package var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}

// MARK: - Finding the file

extension ModelFile {
    /// Reads the model at `path` (a `.xcdatamodeld` folder, a `.xcdatamodel` folder or a
    /// `contents` file).
    package static func read(_ path: String) throws(ModelFileError) -> ModelFile {
        let (file, name) = try locate(path)
        let data = try contents(of: file)
        guard let text = String(data: data, encoding: .utf8) else {
            throw ModelFileError(path: file, message: "is not UTF-8 text")
        }
        return try parse(text, path: file, name: name)
    }

    /// The bytes of the model's XML file, or why they cannot be read (a folder, a device, a
    /// file without read permission: each says so).
    static func contents(of file: String) throws(ModelFileError) -> Data {
        var info = stat()
        guard Posix.stat(file, &info) == 0 else {
            throw ModelFileError(
                path: file, message: "cannot be read: \(String(cString: strerror(errno)))", isMissing: true)
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            throw ModelFileError(
                path: file, message: "is a folder, not the model's XML file (a contents file is a file)")
        default:
            throw ModelFileError(
                path: file,
                message: "is not a regular file (a device or a pipe): give the model's folder or its contents file")
        }
        guard let handle = FileHandle(forReadingAtPath: file) else {
            throw ModelFileError(
                path: file, message: "cannot be read: \(String(cString: strerror(errno)))", isMissing: true)
        }
        defer { try? handle.close() }
        do { return try handle.readToEnd() ?? Data() } catch {
            throw ModelFileError(path: file, message: "cannot be read: \(error.localizedDescription)", isMissing: true)
        }
    }

    /// The `contents` file `path` means, and the model's name.
    static func locate(_ path: String) throws(ModelFileError) -> (file: String, name: String) {
        var isFolder: ObjCBool = false
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isFolder) else {
            var link = stat()
            if Posix.lstat(trimmed, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK {
                // The name is there, but following it fails: a loop, or a link to nothing.
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: trimmed)) ?? "?"
                let why =
                    Posix.stat(trimmed, &link) != 0 && errno == ELOOP
                    ? "a loop of symbolic links" : "a symbolic link to \(target), which does not exist"
                throw ModelFileError(path: path, message: "is \(why)", isMissing: true)
            }
            // A folder on the path that may not be entered hides the name without it being gone.
            let reached = Posix.stat(trimmed, &link) == 0
            let code = errno
            if !reached, code != ENOENT, code != ENOTDIR {
                throw ModelFileError(
                    path: path, message: "cannot be read: \(String(cString: strerror(code)))", isMissing: true)
            }
            throw ModelFileError(
                path: path,
                message: "does not exist (expected a .xcdatamodeld folder, a .xcdatamodel folder or its contents file)",
                isMissing: true)
        }
        let url = URL(fileURLWithPath: trimmed)
        guard isFolder.boolValue else {
            // A contents file: the model is named by its version folder (or the file itself).
            let folder = url.deletingLastPathComponent()
            let name =
                folder.pathExtension == "xcdatamodel"
                ? folder.deletingPathExtension().lastPathComponent
                : url.deletingPathExtension().lastPathComponent
            return (trimmed, modelName(of: folder, fallback: name))
        }
        if url.pathExtension == "xcdatamodeld" {
            let version = try currentVersion(in: trimmed)
            return (
                url.appendingPathComponent(version).appendingPathComponent("contents").path,
                url.deletingPathExtension().lastPathComponent
            )
        }
        let contents = url.appendingPathComponent("contents").path
        guard FileManager.default.fileExists(atPath: contents) else {
            throw ModelFileError(
                path: trimmed,
                message: "holds no contents file (a .xcdatamodel folder holds the model as XML named contents)")
        }
        return (contents, modelName(of: url, fallback: url.deletingPathExtension().lastPathComponent))
    }

    /// A version folder inside a `.xcdatamodeld` is a version of the folder's model.
    private static func modelName(of versionFolder: URL, fallback: String) -> String {
        let parent = versionFolder.deletingLastPathComponent()
        return parent.pathExtension == "xcdatamodeld" ? parent.deletingPathExtension().lastPathComponent : fallback
    }

    /// The version `.xccurrentversion` names (`_XCCurrentVersionName`), or the only one there is.
    static func currentVersion(in folder: String) throws(ModelFileError) -> String {
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        let marker = folder + "/.xccurrentversion"
        if let data = FileManager.default.contents(atPath: marker) {
            let plist: ModelXML.Element
            do {
                plist = try ModelXML.parse(String(decoding: data, as: UTF8.self))
            } catch {
                throw ModelFileError(path: marker, line: error.line, message: error.message)
            }
            let dict = plist.child(named: "dict")?.children ?? []
            guard let k = dict.firstIndex(where: { $0.name == "key" && $0.text == "_XCCurrentVersionName" }),
                k + 1 < dict.count, dict[k + 1].name == "string"
            else {
                throw ModelFileError(path: marker, message: "names no _XCCurrentVersionName")
            }
            let version = dict[k + 1].text
            guard versions.contains(version) else {
                throw ModelFileError(
                    path: marker, line: dict[k + 1].line,
                    message:
                        "names version \(version), which the folder does not hold (it holds: \(versions.isEmpty ? "none" : versions.joined(separator: ", ")))"
                )
            }
            return version
        }
        guard versions.count == 1 else {
            throw ModelFileError(
                path: folder,
                message: versions.isEmpty
                    ? "holds no .xcdatamodel version folder"
                    : "holds \(versions.count) versions (\(versions.joined(separator: ", "))) and no .xccurrentversion to say which is current: give the version folder"
            )
        }
        return versions[0]
    }
}

// MARK: - Reading the XML

extension ModelFile {
    /// Reads a model from the text of a `contents` file.
    package static func parse(_ text: String, path: String, name: String) throws(ModelFileError) -> ModelFile {
        let root: ModelXML.Element
        do {
            root = try ModelXML.parse(text)
        } catch {
            throw ModelFileError(path: path, line: error.line, message: "\(error.message) (column \(error.column))")
        }
        guard root.name == "model" else {
            throw ModelFileError(
                path: path, line: root.line,
                message: "the root element is <\(root.name)>, not the <model> of a Core Data model")
        }
        var reader = ModelReader(path: path)
        let entities = try reader.entities(of: root)
        return ModelFile(path: path, name: name, entities: entities, entityNotes: reader.notes)
    }
}

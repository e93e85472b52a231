import SQLiteKit

/// The models that ship with loadgen, one per built-in dataset: model files as Xcode writes them
/// (`Model/Bundled/*.contents`), compiled into the binary and read by the same reader as a team's
/// own model, so nothing knows their entities by name.
package enum BundledModels {
    /// The names of the bundled models.
    package static let names = ["Expenses", "Photos"]

    /// The bundled model named `name` (one of `names`), read once per process.
    package static func file(named name: String) -> ModelFile {
        cache.withLock { files in
            if let file = files[name] { return file }
            let file = read(name)
            files[name] = file
            return file
        }
    }

    private static let cache = Protected<[String: ModelFile]>([:])

    private static func read(_ name: String) -> ModelFile {
        let bytes: [UInt8]
        switch name {
        case "Expenses": bytes = PackageResources.Expenses_contents
        case "Photos": bytes = PackageResources.Photos_contents
        default: preconditionFailure("no bundled model named \(name) (one of \(names.joined(separator: ", ")))")
        }
        do {
            return try ModelFile.parse(String(decoding: bytes, as: UTF8.self), path: "<bundled \(name)>", name: name)
        } catch {
            // The bundled models are files checked by the tests; a failure here is a bug in
            // them, never a consequence of input.
            preconditionFailure("bundled model \(name) is invalid: \(error)")
        }
    }
}

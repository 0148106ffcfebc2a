import Foundation

/// Reads a Core Data model from disk: a model bundle (`Company.xcdatamodeld`, a folder of
/// versions), one version's folder (`Company 2.xcdatamodel`) or its `contents` file.
///
/// A bundle's current version is the one its `.xccurrentversion` property list names
/// (`_XCCurrentVersionName`); a bundle with a single version and no such file uses that version,
/// and a bundle with several versions and none is an error naming them. Compiled models
/// (`.momd`, `.mom`) are binary property lists and are refused: read the source model instead.
///
/// ```swift
/// let model = try CoreDataModelReader.read(at: "Sources/App/Company.xcdatamodeld")
/// print(model.versionName ?? "")   // Company 2
/// ```
public enum CoreDataModelReader {
    /// Reads the model at `path`: a `.xcdatamodeld` bundle (its current version), a
    /// `.xcdatamodel` folder, or a `contents` file.
    ///
    /// ```swift
    /// let model = try CoreDataModelReader.read(at: "Company.xcdatamodeld/Company.xcdatamodel/contents")
    /// ```
    public static func read(at path: String) throws(CoreDataModelError) -> CoreDataModel {
        let (contents, versionName) = try contentsFile(for: path)
        var model = try CoreDataModelParser(file: contents).parseModel(try document(at: contents, allowingExternalDocumentType: false))
        model.versionName = versionName
        return model
    }

    /// The `contents` file a path leads to, and the name of the version it holds (the model
    /// folder's name without `.xcdatamodel`; nil for a bare file).
    package static func contentsFile(for path: String) throws(CoreDataModelError) -> (path: String, versionName: String?) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .unreadable(path: path, reason: "no such file or folder")
        }
        guard isFolder.boolValue else { return (path, nil) }
        let folder = URL(fileURLWithPath: path)
        if folder.pathExtension == "xcdatamodel" || (folder.pathExtension != "xcdatamodeld" && exists(folder.appendingPathComponent("contents").path)) {
            let contents = folder.appendingPathComponent("contents").path
            guard exists(contents) else {
                throw .unreadable(path: path, reason: "a model folder (.xcdatamodel) without a 'contents' file")
            }
            return (contents, folder.deletingPathExtension().lastPathComponent)
        }
        let version = try currentVersion(ofBundle: path)
        let contents = folder.appendingPathComponent(version).appendingPathComponent("contents").path
        guard exists(contents) else {
            throw .version(bundle: path, message: "the current version '\(version)' has no 'contents' file")
        }
        return (contents, URL(fileURLWithPath: version).deletingPathExtension().lastPathComponent)
    }

    /// The folder name of a bundle's current version (`Company 2.xcdatamodel`).
    package static func currentVersion(ofBundle path: String) throws(CoreDataModelError) -> String {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw .unreadable(path: path, reason: "the folder cannot be listed (\(error.localizedDescription))")
        }
        let versions = entries.filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        let marker = URL(fileURLWithPath: path).appendingPathComponent(".xccurrentversion").path
        guard exists(marker) else {
            switch versions.count {
            case 0: throw .version(bundle: path, message: "no model version (.xcdatamodel folder) inside")
            case 1: return versions[0]
            default:
                throw .version(
                    bundle: path,
                    message: "\(versions.count) versions (\(versions.joined(separator: ", "))) and no .xccurrentversion naming the current one; add it, or read one version's folder")
            }
        }
        // A property list declares its document type; it names an external definition only, and
        // one with an internal subset is still refused.
        let root = try document(at: marker, allowingExternalDocumentType: true)
        guard root.name == "plist", let dictionary = root.children.first, dictionary.name == "dict" else {
            throw .invalid(file: marker, line: root.line, message: "expected a property list holding a dictionary (<plist><dict>)")
        }
        var name: String?
        for (position, key) in dictionary.children.enumerated() where key.name == "key" && key.text == "_XCCurrentVersionName" {
            let value = position + 1 < dictionary.children.count ? dictionary.children[position + 1] : nil
            guard let value, value.name == "string", !value.text.isEmpty else {
                throw .invalid(file: marker, line: key.line, message: "_XCCurrentVersionName is not followed by a <string> naming a version")
            }
            name = value.text
        }
        guard let name else { throw .invalid(file: marker, line: dictionary.line, message: "the property list has no _XCCurrentVersionName") }
        guard versions.contains(name) else {
            let available = versions.isEmpty ? "none" : versions.joined(separator: ", ")
            throw .version(bundle: path, message: ".xccurrentversion names '\(name)', which the bundle does not have (versions: \(available))")
        }
        return name
    }

    private static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// The root element of the XML file at `path`.
    private static func document(at path: String, allowingExternalDocumentType: Bool) throws(CoreDataModelError) -> XMLElementNode {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "the file cannot be read")
        }
        if data.starts(with: Data("bplist".utf8)) {
            throw .unreadable(path: path, reason: "a binary property list, as compiled models (.mom, .momd) are; read the source model (.xcdatamodeld) instead")
        }
        return try XMLElementReader.read(data, file: path, allowingExternalDocumentType: allowingExternalDocumentType)
    }
}

import Foundation

/// One app extension a build ships (issue 39): an executable of the team's package that iOS runs on
/// its own schedule, in its own process, with its own bundle id, entitlements and data container,
/// sharing the app's app group containers and the keychain access groups its own entitlements hold.
///
/// build.json's optional `extensions` array holds these. A build without the field is decoded,
/// installed and judged exactly as before: nothing of it is written anywhere.
public struct BuildExtension: Codable, Equatable, Sendable {
    /// The kinds of extension the runner launches, as the `kind` field spells them.
    public static let kinds = ["notification-service", "widget", "share", "background-task"]
    /// The fields an extension object may hold.
    public static let knownFields = ["name", "executable", "kind", "bundleID", "entitlements"]

    /// The extension's name: the last component of its bundle id (`<app bundle id>.<name>`) and
    /// what `launch --extension`, findings and status items name it by.
    public var name: String
    /// The executable's product name, looked up in the products folder as the app's is.
    public var executable: String
    /// One of ``kinds``: `notification-service`, `widget`, `share`, `background-task`.
    public var kind: String
    /// The extension's bundle id; nil: derived, `<app bundle id>.<name>`. When given it must be that.
    public var bundleID: String?
    /// The extension's own entitlements file, a plain file name inside the build folder.
    public var entitlements: String

    public init(name: String, executable: String, kind: String, bundleID: String? = nil, entitlements: String) {
        self.name = name
        self.executable = executable
        self.kind = kind
        self.bundleID = bundleID
        self.entitlements = entitlements
    }

    /// The bundle id the extension installs with, under the app's.
    public func resolvedBundleID(appBundleID: String) -> String { bundleID ?? appBundleID + "." + name }
}

extension BuildManifest {
    /// The extension named `name`, or nil.
    public func buildExtension(named name: String) -> BuildExtension? {
        extensions?.first { $0.name == name }
    }

    /// The first rule the `extensions` field breaks, as one reason naming the build and the field
    /// (`build v2: field "extensions[0].kind" "today" is not an extension kind (...)`), or nil.
    /// Whether the entitlements file exists and what it holds needs the build folder, which the
    /// build catalog checks.
    public func extensionsProblem() -> String? {
        guard let extensions else { return nil }
        var names: Set<String> = []
        for (index, item) in extensions.enumerated() {
            let field = "extensions[\(index)]"
            func problem(_ name: String, _ reason: String) -> String { "build \(id): field \"\(field).\(name)\" \(reason)" }
            for (name, value) in [("name", item.name), ("executable", item.executable), ("entitlements", item.entitlements)] {
                if value.trimmingCharacters(in: .whitespaces).isEmpty { return problem(name, "is empty") }
                if value.count > Self.maximumNameLength {
                    return problem(name, "is \(value.count) characters, more than \(Self.maximumNameLength)")
                }
            }
            let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
            if item.name.unicodeScalars.contains(where: { !allowed.contains($0) }) {
                return problem(
                    "name", "\(QuotedString.text(item.name)) is not a bundle id component (letters, digits and -)")
            }
            if !names.insert(item.name).inserted {
                return problem("name", "\(QuotedString.text(item.name)) is declared twice")
            }
            for (name, value) in [("executable", item.executable), ("entitlements", item.entitlements)]
            where value.contains("/") || value.hasPrefix(".") {
                return problem(name, "must be a plain file name, not \(QuotedString.text(value))")
            }
            if !BuildExtension.kinds.contains(item.kind) {
                return problem(
                    "kind",
                    "\(QuotedString.text(item.kind)) is not an extension kind (\(BuildExtension.kinds.joined(separator: ", ")))")
            }
            let derived = bundleID + "." + item.name
            if let given = item.bundleID, given != derived {
                return problem(
                    "bundleID",
                    "\(QuotedString.text(given)) is not \"\(derived)\" (an extension's bundle id is <app bundle id>.<name>)")
            }
        }
        return nil
    }

    /// The first field of an `extensions` object this runner does not read, with the known field it is
    /// likely a typo of, or nil.
    static func unknownExtensionFieldProblem(in object: [String: Any]) -> String? {
        guard let list = object["extensions"] as? [Any] else { return nil }
        for (index, element) in list.enumerated() {
            guard let item = element as? [String: Any] else { continue }
            guard let unknown = item.keys.sorted().first(where: { !BuildExtension.knownFields.contains($0) }) else {
                continue
            }
            let hint =
                Spelling.suggestion(for: unknown, among: BuildExtension.knownFields).map { "; did you mean \"\($0)\"?" } ?? ""
            return "field \"extensions[\(index)].\(unknown)\" is not an extension field\(hint)"
        }
        return nil
    }
}

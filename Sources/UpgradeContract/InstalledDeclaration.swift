import Foundation

/// The `keeps` of an installed build.json, read at every app launch (AppHarness's
/// `installedDeclaration()`), without `JSONDecoder` for what the runner and the adopters write:
/// `JSONDecoder`'s first use for these types cost an app launch 5-8% (docs/benchmarks.md).
///
/// The answer is `JSONDecoder`'s: the whole ``BuildManifest`` must decode (a missing or mistyped
/// field anywhere makes it nil), then its ``BuildManifest/keeps``. The fast reader checks every
/// field the synthesized decoder reads, with the types it reads them as, and answers only when it
/// is sure; anything else (text that is not UTF-8, a duplicate key, a number with a fraction where
/// an integer goes, a null where a value is required, a `policies` or `extensions` field, which it
/// does not read) goes to `JSONDecoder`. `InstalledDeclarationTests` compares the two over every
/// build.json of the repository and odd inputs.
extension BuildManifest {
    /// The `keeps` of the build.json `data`, as `JSONDecoder` gives it (nil when the manifest does
    /// not decode or declares nothing).
    package static func installedDeclaration(_ data: Data) -> BuildDeclaration? {
        if let read = InstalledDeclarationReader.read(data) { return read }
        return (try? JSONDecoder().decode(BuildManifest.self, from: data))?.keeps
    }
}

/// The fast half of ``BuildManifest/installedDeclaration(_:)``.
enum InstalledDeclarationReader {
    /// `.some(keeps)` when the reader takes the text (and `keeps` may be nil), nil when
    /// `JSONDecoder` must decide.
    static func read(_ data: Data) -> BuildDeclaration?? {
        data.withUnsafeBytes { raw -> BuildDeclaration?? in
            let bytes = raw.bindMemory(to: UInt8.self)
            // The parser takes its strings' bytes as they are: only valid UTF-8 (as JSONDecoder requires).
            guard String(validating: bytes, as: UTF8.self) != nil, var parser = JSONParser(bytes: bytes),
                let document = parser.document()
            else { return nil }
            return manifest(document)
        }
    }

    typealias Value = JSONValue

    private static func optional<T>(_ value: Value?, _ read: (Value) -> T?) -> T?? { Value.optional(value, read) }

    /// The manifest's `keeps` when every field decodes as ``BuildManifest``'s synthesized decoder
    /// decodes it; nil when any does not, or is one this reader leaves to `JSONDecoder`.
    static func manifest(_ value: Value) -> BuildDeclaration?? {
        guard let fields = value.object,
            fields["id"]?.string != nil, fields["bundleID"]?.string != nil,
            fields["marketingVersion"]?.string != nil, fields["buildNumber"]?.string != nil,
            fields["executable"]?.string != nil, fields["schemaVersion"]?.int != nil,
            fields["entitlements"]?.string != nil,
            optional(fields["notes"], { $0.string }) != nil,
            optional(fields["artefactWindowDays"], { $0.int }) != nil,
            optional(fields["antiPattern"], { $0.string }) != nil,
            optional(fields["expectedCondition"], { $0.string }) != nil,
            optional(fields["standIn"], { $0.bool }) != nil,
            optional(fields["minimumOSVersion"], { $0.string }) != nil,
            // Left to JSONDecoder when given.
            optional(fields["policies"], { _ in nil as Bool? }) != nil,
            optional(fields["extensions"], { _ in nil as Bool? }) != nil,
            let keeps = optional(fields["keeps"], declaration)
        else { return nil }
        return .some(keeps)
    }

    static func declaration(_ value: Value) -> BuildDeclaration? {
        guard let fields = value.object,
            let secrets = optional(fields["secrets"], items),
            let bookkeeping = optional(fields["bookkeeping"], items)
        else { return nil }
        return BuildDeclaration(secrets: secrets ?? [], bookkeeping: bookkeeping ?? [])
    }

    static func items(_ value: Value) -> [DeclaredItem]? {
        guard let list = value.array else { return nil }
        var items: [DeclaredItem] = []
        items.reserveCapacity(list.count)
        for element in list {
            guard let item = item(element) else { return nil }
            items.append(item)
        }
        return items
    }

    static func item(_ value: Value) -> DeclaredItem? {
        guard let fields = value.object,
            let label = fields["label"]?.string,
            let store = fields["store"].flatMap(store),
            let shapeWords = optional(fields["shapes"], { $0.strings }),
            let shapesReason = optional(fields["shapesReason"], { $0.string }),
            let holdsBytes = optional(fields["holdsBytes"], { $0.bool }),
            let reportedAs = optional(fields["reportedAs"], { $0.strings })
        else { return nil }
        var item = DeclaredItem(label: label, store: store, holdsBytes: holdsBytes ?? false)
        item.shapeWords = shapeWords
        item.shapesReason = shapesReason
        item.reportedAs = reportedAs
        return item
    }

    static func store(_ value: Value) -> DeclaredStore? {
        guard let fields = value.object, let kind = fields["kind"]?.string else { return nil }
        func required(_ key: String) -> String? { fields[key]?.string }
        func optionalString(_ key: String) -> String?? { optional(fields[key], { $0.string }) }
        switch kind {
        case "preference":
            guard let key = required("key"), let suite = optionalString("suite") else { return nil }
            return .preference(key: key, suite: suite)
        case "plist":
            guard let file = required("file"), let keyPath = required("keyPath"), let group = optionalString("group")
            else { return nil }
            if let group { return .groupPropertyList(group: group, file: file, keyPath: keyPath) }
            return .propertyList(file: file, keyPath: keyPath)
        case "json":
            guard let file = required("file"), let keyPath = required("keyPath"), let group = optionalString("group")
            else { return nil }
            return .json(file: file, keyPath: keyPath, group: group)
        case "archive":
            guard let file = required("file"), let keyPath = optionalString("keyPath") else { return nil }
            return .archive(file: file, keyPath: keyPath)
        case "keychain":
            guard let itemClass = optionalString("class"), let service = optionalString("service"),
                let server = optionalString("server"), let account = optionalString("account"),
                let port = optional(fields["port"], { $0.int }), let `protocol` = optionalString("protocol"),
                let path = optionalString("path"), let authenticationType = optionalString("authenticationType"),
                let securityDomain = optionalString("securityDomain"), let accessGroup = optionalString("accessGroup"),
                let accessible = optionalString("accessible"),
                let synchronizable = optional(fields["synchronizable"], { $0.bool })
            else { return nil }
            return .keychain(
                KeychainItemDeclaration(
                    itemClass: itemClass ?? "genp", service: service, server: server, account: account ?? "",
                    accessGroup: accessGroup, accessible: accessible, synchronizable: synchronizable ?? false,
                    port: port, protocol: `protocol`, path: path, authenticationType: authenticationType,
                    securityDomain: securityDomain))
        case "appGroupFile":
            guard let group = required("group"), let file = required("file") else { return nil }
            return .appGroupFile(group: group, file: file)
        default: return nil
        }
    }
}

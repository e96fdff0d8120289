import FileUtility
import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// seed-variants: the old build seeds once; then, for each store its seed wrote that holds none of
/// the case's secrets (a settings file, a cache, a preference key, a keychain item of its own), a
/// variant on its own device (a copy of the seeded one) without that store alone: the route's
/// hops, the upgrade, the new build's first launch and a verify launch. reads-old-data and
/// stays-signed-in are judged on each variant as on an upgrade, and honest-status on its launches.
///
/// Every seed writes the same stores, so without this a migration passes that reads the legacy
/// secrets only when some incidental file exists: a settings file a user who never opened
/// Settings does not have, a cache the system purged, a flag an older release wrote only on some
/// paths. The secrets themselves are all still there in each variant (the store removed holds none
/// of them), so the user was signed in with the old release, and must stay so.
///
/// Not varied: the app's declared bookkeeping (``BuildDeclaration/bookkeeping``: an install
/// marker, a schema version), which is the app's own record of its state, present whenever its
/// data is (marker-without-data and reinstall vary it); the container's metadata and `tmp/`.
/// On every upgrade path.
enum SeedVariantsSteps: ScenarioSteps {
    static let moments: Set<Moment> = [.afterSeed]

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence, hops: false)
        let stores = try IncidentalStore.all(after: cell, on: device)
        var variants: [SeedVariant] = []
        for (index, store) in stores.enumerated() {
            if LaunchedProcesses.isStopped { throw DeviceError.interrupted }
            var variant = SeedVariant(store: store.name)
            do {
                let copy = try ScenarioDevice(
                    cloning: device, devices: cell.devices, name: "\(cell.unit.pathID)-variant-\(index + 1)",
                    cellFolder: cell.cellFolder + "/" + ArtifactLayout.variantsFolder + "/\(index + 1)", continuingNumbering: true
                )
                defer {
                    variant.launches = copy.launches
                    copy.finish(keepSnapshotFor: nil)
                }
                try store.remove(from: copy, cell: cell)
                try cell.hop(copy)
                try copy.install(cell.new)
                try copy.launch(cell.new, .launch)
                try copy.launch(cell.new, .verify)
            } catch {
                variant.problem = "the variant stopped: \(error)"
            }
            variants.append(variant)
        }
        evidence.facts = .seedVariants(variants)
        try ArtifactFile.write(
            GateJSON.pretty(SeedVariantsDocument(variants: variants.enumerated().map { "\($0.offset + 1): \($0.element.id)" })),
            to: cell.cellFolder + "/" + ArtifactLayout.variantsFile)
    }
}

/// variants.json: which store each numbered folder of `variants/` goes without.
struct SeedVariantsDocument: Encodable {
    var variants: [String]
}

/// One variant of seed-variants: the store it goes without, its launches, and why it proves nothing
/// when it could not be carried out. Names and statuses only.
struct SeedVariant: Sendable {
    /// `file Documents/Settings.plist`, `preference lastSync`, `keychain item genp com.example/flag`.
    var store: String
    var launches: [LaunchRecord] = []
    var problem: String?

    /// `without file Documents/Settings.plist`, as findings name the variant.
    var id: String { "without " + store }
}

/// A store the old build's seed wrote that holds none of the case's secrets, and how to take it
/// away from a device.
struct IncidentalStore: Sendable {
    enum Kind: Sendable {
        /// A file, by its path inside the device's folder (the same on a copy).
        case file(path: String)
        /// A key of a preferences file (the app's domain or an app group's), the file by its path
        /// inside the device's folder.
        case preference(file: String, key: String)
        /// A keychain item, by its class and persistent reference.
        case keychainItem(itemClass: String, reference: Data)
    }

    var name: String
    var kind: Kind

    /// The stores on `device` after the old build's seed (before any hop) that hold no declared
    /// secret's bytes and are not declared bookkeeping, in a stable order: keychain items, then
    /// preference keys, then files (each in name order).
    static func all(after cell: CellRunner, on device: ScenarioDevice) throws -> [IncidentalStore] {
        guard let old = cell.old else { return [] }
        // Every form a store keeps each secret in (raw, escaped, UTF-16); the cell never seeds an
        // empty secret (``ShapeRotation/tellsValuesApart``), which no bytes would show.
        let forms = cell.declarations.locator.secrets.flatMap(\.forms).filter { !$0.isEmpty }
        func holdsSecret(_ data: Data) -> Bool { forms.contains { data.range(of: $0) != nil } }
        var keychain: [IncidentalStore] = []
        let groups = Set(old.identity.accessGroups)
        for item in try device.keychainItems() where groups.contains(item.accessGroup) {
            guard !cell.declarations.isBookkeeping(item), !holdsSecret(item.data ?? Data()) else { continue }
            let key = [item.attributes["svce"] ?? item.attributes["srvr"], item.attributes["acct"]].compactMap { $0 }
            keychain.append(
                IncidentalStore(
                    name: "keychain item \(item.itemClass) \(key.joined(separator: "/"))",
                    kind: .keychainItem(itemClass: item.itemClass, reference: item.persistentReference)))
        }
        var preferences: [IncidentalStore] = []
        var files: [IncidentalStore] = []
        let session = device.session
        let containers =
            [(session.dataContainer(old.manifest.bundleID), nil as String?)]
            + old.identity.applicationGroups.map { (session.groupContainer($0), $0) }
        for case (let container?, let group) in containers {
            let label = group.map { "\($0): " } ?? ""
            for file in session.files(in: container, pruning: ["tmp"]) {
                guard let contents = file.contents, !file.relative.hasPrefix(".com.apple.mobile_container_manager") else {
                    continue
                }
                let path = String((container.path + "/" + file.relative).dropFirst(session.layout.directory.count))
                let domain = (file.relative as NSString).lastPathComponent.replacingOccurrences(of: ".plist", with: "")
                let isPreferences =
                    file.relative.hasPrefix(AppContainers.preferencesPath + "/") && file.relative.hasSuffix(".plist")
                if isPreferences, let values = Self.preferences(contents) {
                    let suite = group ?? (domain == old.manifest.bundleID ? nil : domain)
                    for key in values.keys.sorted() {
                        guard !cell.declarations.isBookkeepingPreference(key, suite: suite),
                            let encoded = try? PropertyListSerialization.data(
                                fromPropertyList: [key: values[key]!], format: .xml, options: 0),
                            !holdsSecret(encoded),
                            let binary = try? PropertyListSerialization.data(
                                fromPropertyList: [key: values[key]!], format: .binary, options: 0),
                            !holdsSecret(binary)
                        else { continue }
                        preferences.append(
                            IncidentalStore(name: "preference \(label)\(domain) \(key)", kind: .preference(file: path, key: key)))
                    }
                } else if !holdsSecret(contents) {
                    files.append(IncidentalStore(name: "file \(label)\(file.relative)", kind: .file(path: path)))
                }
            }
        }
        return keychain + preferences + files
    }

    /// A preferences file's keys and values, nil when it is not a property list of a dictionary.
    private static func preferences(_ data: Data) -> [String: Any]? {
        (try? PropertyListSerialization.propertyList(from: data, options: [], format: nil)) as? [String: Any]
    }

    /// Takes the store away from `device` (a copy of the seeded device: its paths are the copy's).
    func remove(from device: ScenarioDevice, cell: CellRunner) throws {
        let session = device.session
        switch kind {
        case .keychainItem(let itemClass, let reference):
            let keychain = cell.adminKeychain(device, identity: cell.old?.identity ?? cell.new.identity)
            let query: [CFString: Any] = [
                kSecClass: itemClass as CFString, kSecValuePersistentRef: reference,
                kSecAttrSynchronizable: kSecAttrSynchronizableAny,
            ]
            let status = keychain.delete(query as CFDictionary)
            guard status == errSecSuccess else {
                throw DeviceError.fileSystem(
                    session.layout.keychainPath, reason: "cannot remove \(name): \(SecurityStatus(status))")
            }
        case .file(let path):
            let copied = session.layout.directory + path
            guard unlink(copied) == 0 else {
                throw DeviceError.fileSystem(copied, reason: "cannot remove \(name): \(String(cString: strerror(errno)))")
            }
        case .preference(let path, let key):
            let copied = session.layout.directory + path
            var format = PropertyListSerialization.PropertyListFormat.binary
            guard let data = FileManager.default.contents(atPath: copied),
                var values = (try? PropertyListSerialization.propertyList(from: data, options: [], format: &format))
                    as? [String: Any]
            else { throw DeviceError.fileSystem(copied, reason: "cannot read \(name)") }
            values[key] = nil
            let encoded = try PropertyListSerialization.data(fromPropertyList: values, format: format, options: 0)
            let failure = AtomicFile.write(encoded, to: copied)
            guard failure == 0 else {
                throw DeviceError.fileSystem(copied, reason: "cannot be written (\(FileFailure.posix(failure)))")
            }
        }
        session.contentsChanged()
    }
}

extension CellEvidence {
    /// seed-variants' variants (its cell, once the template was seeded).
    var seedVariants: [SeedVariant]? {
        if case .seedVariants(let variants) = facts { variants } else { nil }
    }

    /// `condition` judged on each seed variant as on a cell of its own (the template's seed, then
    /// the variant's launches), its findings named by the variant; one PASS over all when every
    /// variant passed. honest-status judges each launch once: the template's, then each variant's.
    func judgedPerVariant(_ condition: GateCondition, by checker: any CellChecker.Type) -> [GateFinding] {
        guard let variants = seedVariants else { return checker.check(self) }
        guard !variants.isEmpty else {
            // No variant ran, so nothing was judged: a PASS here would prove nothing.
            return [
                finding(
                    condition, .pass,
                    "not judged: no variant: the old build's seed wrote no store without a secret in it (beyond its bookkeeping)",
                    notJudged: true)
            ]
        }
        var findings: [GateFinding] = []
        if checker is any LaunchChecker.Type {
            var template = self
            template.facts = .none
            findings += checker.check(template).filter { $0.verdict != .pass }
        }
        for variant in variants {
            if let problem = variant.problem {
                findings.append(finding(condition, .unknown, item: variant.id, problem))
                continue
            }
            var one = self
            one.facts = .none
            one.launches = checker is any LaunchChecker.Type ? variant.launches : launches + variant.launches
            for var found in checker.check(one) where found.verdict != .pass {
                found.message = variant.id + ": " + found.message
                found.item = variant.id
                // The same loss on another variant is another finding (the variants are the old build's seed's).
                if let key = found.key { found.key?.subject = variant.id + ": " + key.subject }
                findings.append(found)
            }
        }
        if !findings.isEmpty { return findings }
        let names = variants.map(\.store).joined(separator: "; ")
        return [
            finding(
                condition, .pass, "held on each of \(variants.count) variant(s) of the seed, each without one store: \(names)")
        ]
    }
}

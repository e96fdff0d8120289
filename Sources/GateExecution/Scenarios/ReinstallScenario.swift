import FileUtility
import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// reinstall: the user deletes the app (its keychain items stay, as on iOS) and installs the new
/// build. Before the uninstall the runner adds what a sweep must remove (``CellRunner/sweepTargets``)
/// and another team's items that must stay; the new build's first launch must sweep what the old
/// install left (reinstall-sweeps), then the final re-read (its secrets read as missing).
enum ReinstallSteps: ScenarioSteps {
    static let moments = Moment.upgraded.union(Moment.finalReread).union([.beforeReinstall])
    static let removal: (wanted: ItemResult, when: String)? = (.missing, "after the reinstall")

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        try cell.seed(device, &evidence)
        try cell.addSweepTargets(device, &evidence)
        try cell.addNeighbourItems(device)
        evidence.snapshots[.beforeReinstall] = try device.snapshot(cell.previous ?? cell.new)
        if let previous = cell.previous { try device.uninstall(previous) }
        try device.install(cell.new)
        try device.launch(cell.new, .launch)
        evidence.snapshots[.afterFirstLaunch] = try device.snapshot(cell.new)
        try device.launch(cell.new, .verify)
        try cell.finalReread(device, &evidence)
    }
}

extension CellRunner {
    /// The items the runner adds before a reinstall, beside the old build's own: what a sweep that
    /// deletes only the easy items (local generic passwords) leaves behind. Each goes into every
    /// access group both builds hold, so the new build can reach it and its sweep must remove it:
    /// a synchronizable generic password, an internet password, a key and a certificate, in several
    /// protection classes; and a synchronizable copy of each of the previous install's own passwords
    /// (``ownItemTwins``). Their values derive from the case id; none is a case secret.
    static var sweepTargets: [(name: String, attributes: [CFString: Any])] {
        [
            (
                "synchronizable genp",
                [
                    kSecClass: kSecClassGenericPassword, kSecAttrService: "com.example.sweep", kSecAttrAccount: "synced",
                    kSecAttrSynchronizable: true, kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
                ]
            ),
            (
                "genp aku",
                [
                    kSecClass: kSecClassGenericPassword, kSecAttrService: "com.example.sweep", kSecAttrAccount: "local",
                    kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                ]
            ),
            (
                "inet",
                [
                    kSecClass: kSecClassInternetPassword, kSecAttrServer: "sweep.example.com", kSecAttrAccount: "me",
                    kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                ]
            ),
            (
                "synchronizable inet",
                [
                    kSecClass: kSecClassInternetPassword, kSecAttrServer: "sync.sweep.example.com", kSecAttrAccount: "me",
                    kSecAttrSynchronizable: true,
                ]
            ),
            (
                "key",
                [
                    kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("com.example.sweep.key".utf8),
                    kSecAttrKeyClass: kSecAttrKeyClassPrivate, kSecAttrKeyType: kSecAttrKeyTypeEC,
                    kSecAttrAccessible: kSecAttrAccessibleAlwaysThisDeviceOnly,
                ]
            ),
            (
                "certificate",
                [
                    kSecClass: kSecClassCertificate, kSecAttrIssuer: Data("CN=Sweep CA".utf8),
                    kSecAttrSerialNumber: Data([0x01, 0x02]),
                ]
            ),
        ]
    }

    /// Adds ``sweepTargets`` and records their keys in `evidence` (``CellEvidence/planted``), so
    /// reinstall-sweeps tells them from what the app's own launches wrote.
    func addSweepTargets(_ device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        guard let old else { return }
        let groups = old.identity.accessGroups.filter(new.identity.accessGroups.contains)
        var planted = Set<String>()
        let items = groups.flatMap { group in
            Self.sweepTargets.map { name, attributes -> (String, [CFString: Any]) in
                var item = attributes
                item[kSecAttrAccessGroup] = group
                planted.insert(
                    DeviceSnapshot.Item(
                        itemClass: "\(attributes[kSecClass]!)", accessGroup: group,
                        service: (attributes[kSecAttrService] ?? attributes[kSecAttrServer]).map { "\($0)" } ?? "",
                        account: attributes[kSecAttrAccount].map { "\($0)" } ?? "", accessible: "",
                        synchronizable: attributes[kSecAttrSynchronizable] as? Bool ?? false, digest: ""
                    ).key)
                item[kSecValueData] = Data(SHA256.hash(Data("sweep-\(name)-\(group)-\(caseID)".utf8)))
                return ("a \(name) item before the reinstall", item)
            }
        }
        let twins = try ownItemTwins(device, groups: Set(groups)).filter { planted.insert($0.key).inserted }
        try addItems(items + twins.map { ($0.what, $0.query) }, as: old.identity, on: device)
        evidence.planted = planted
    }

    /// A synchronizable copy of each local generic and internet password the previous install wrote in
    /// `groups` (its declared bookkeeping aside): the same class, service and account (server, port and
    /// protocol), and group, `kSecAttrAccessibleAfterFirstUnlock`, a value derived from the case id. It is
    /// what the app writes itself (``PlantedItemRule``), so a sweep scoped without
    /// `kSecAttrSynchronizableAny` that leaves it behind FAILs reinstall-sweeps, not only under `--strict`.
    private func ownItemTwins(
        _ device: ScenarioDevice, groups: Set<String>
    ) throws -> [(key: String, what: String, query: [CFString: Any])] {
        try device.keychainItems().sorted { $0.persistentReference.lexicographicallyPrecedes($1.persistentReference) }
            .compactMap { record in
                guard groups.contains(record.accessGroup), !record.synchronizable, !declarations.isBookkeeping(record),
                    record.itemClass == "genp" || record.itemClass == "inet"
                else { return nil }
                let inet = record.itemClass == "inet"
                var query: [CFString: Any] = [
                    kSecClass: inet ? kSecClassInternetPassword : kSecClassGenericPassword,
                    kSecAttrAccount: record.account ?? "", kSecAttrAccessGroup: record.accessGroup,
                    kSecAttrSynchronizable: true, kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
                ]
                let port = DeviceSnapshot.Item.present(record.attributes["port"])
                let code = DeviceSnapshot.Item.present(record.attributes["ptcl"])
                if inet {
                    query[kSecAttrServer] = record.attributes["srvr"] ?? ""
                    if let port, let number = Int(port) { query[kSecAttrPort] = number }
                    if let code { query[kSecAttrProtocol] = code }
                } else {
                    query[kSecAttrService] = record.service ?? ""
                }
                let name = "\(record.itemClass) \(record.service ?? "")/\(record.account ?? "")"
                query[kSecValueData] = Data(SHA256.hash(Data("sweep-twin-\(name)-\(record.accessGroup)-\(caseID)".utf8)))
                let key = DeviceSnapshot.Item(
                    itemClass: record.itemClass, accessGroup: record.accessGroup, service: record.service ?? "",
                    account: record.account ?? "", accessible: "", synchronizable: true, digest: ""
                ).key
                return (key, "a synchronizable copy of the previous install's \(name) before the reinstall", query)
            }
    }
}

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
    /// protection classes. Their values derive from the case id; none is a case secret.
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
        try addItems(items, as: old.identity, on: device)
        evidence.planted = planted
    }
}

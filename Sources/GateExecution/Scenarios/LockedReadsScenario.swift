import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity
import SimSupervision

/// The lock states a store can be read in, by seed 000's table of accessibility classes
/// (keychain-behaviour.md rows 32-34), asked of the rules the simulated platform itself follows:
/// SimSecurity's for a keychain item's class, SimDevice's for a file's data protection class.
/// Preferences are a file of the default class (`NSFileProtectionCompleteUntilFirstUserAuthentication`).
enum LockAvailability {
    /// The lock states, from the most to the least available.
    static let states: [LockState] = [.unlocked, .locked, .beforeFirstUnlock]

    /// The states a keychain item of protection class `pdmn` (`ak`, `cku`, ...) can be read in; an
    /// unknown class as the strictest (unlocked only).
    static func states(keychain pdmn: String) -> Set<LockState> {
        Set(states.filter { Keychain.canRead(protectionClass: pdmn, in: $0) ?? ($0 == .unlocked) })
    }

    /// The states a file of protection class `protection` can be read in.
    static func states(file protection: FileProtection) -> Set<LockState> { Set(states.filter(protection.canRead)) }

    /// `locked after first unlock`, as findings say it.
    static func name(_ state: LockState) -> String {
        switch state {
        case .unlocked: "unlocked"
        case .locked: "locked after first unlock"
        case .beforeFirstUnlock: "before first unlock"
        }
    }

    /// `unlocked, locked after first unlock`, in the order of ``states``.
    static func names(_ set: Set<LockState>) -> String {
        let named = states.filter(set.contains).map(name)
        return named.isEmpty ? "never" : named.joined(separator: ", ")
    }
}

/// Where one secret is kept on a device and the lock states that place can be read in, as the
/// device holds it: a keychain item's actual `pdmn`, a file's actual protection class.
struct SecretPlace: Sendable, Hashable {
    /// `keychain genp com.example.ledger/authToken (cku)`, `archive Library/.../Session.archive (NSFileProtection...)`.
    var description: String
    var states: Set<LockState>
    /// How the place protects what it holds, as the device says (keeps-protection).
    var protection: SecretProtection
    /// Whether reading it needs the user (an access control with user presence, biometry or the
    /// passcode): a background launch can never read it (keeps-availability).
    var needsUser = false

    /// The place `store` names on `device` for the app `build`, or nil when the store holds nothing there.
    /// `keychain`: the device's items, read once for every secret of one state.
    static func find(
        _ store: DeclaredStore, on device: Device, app build: Build, keychain: [KeychainItemRecord]
    ) throws -> SecretPlace? {
        let bundleID = build.manifest.bundleID
        func file(_ container: Container?, _ relative: String, kind: String) -> SecretPlace? {
            guard let container else { return nil }
            let url = URL(fileURLWithPath: container.path).appendingPathComponent(relative)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            // The registry is read as the platform keeps it; the runner's own read passes through no seam.
            let files = ProtectedFiles(
                containers: [URL(fileURLWithPath: container.path)], lockState: .fixed(.unlocked), seam: Seam())
            let protection = files.protection(of: url)
            return SecretPlace(
                description: "\(kind) \(relative) (\(protection.rawValue))", states: LockAvailability.states(file: protection),
                protection: .file(protection))
        }
        switch store {
        case .preference(let key, let suite):
            let container = suite.map(device.groupContainer) ?? device.dataContainer(bundleID)
            guard let container else { return nil }
            let plist = container.path + "/Library/Preferences/" + (suite ?? bundleID) + ".plist"
            guard let data = FileManager.default.contents(atPath: plist),
                let root = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                root[key] != nil
            else { return nil }
            return SecretPlace(
                description: "preference \(key) (\(FileProtection.default.rawValue))",
                states: LockAvailability.states(file: .default), protection: .file(.default))
        case .propertyList(let relative, _):
            return file(device.dataContainer(bundleID), relative, kind: "plist")
        case .archive(let relative, _):
            return file(device.dataContainer(bundleID), relative, kind: "archive")
        case .appGroupFile(let group, let relative):
            return file(device.groupContainer(group), relative, kind: "app-group file")
        case .groupPropertyList(let group, let relative, _):
            return file(device.groupContainer(group), relative, kind: "app-group plist")
        case .json(let relative, _, nil):
            return file(device.dataContainer(bundleID), relative, kind: "json")
        case .json(let relative, _, let group?):
            return file(device.groupContainer(group), relative, kind: "app-group json")
        case .keychain(let key):
            let groups = Set(build.identity.accessGroups)
            guard
                let item = keychain.first(where: {
                    groups.contains($0.accessGroup) && CaseDeclarations.matches(key, $0)
                })
            else { return nil }
            let name = [key.service ?? key.server ?? "", key.account].joined(separator: "/")
            let control = AccessControlNeeds(item)
            var states = LockAvailability.states(keychain: item.accessible)
            // An item whose access control needs the user reads only where a prompt can be shown:
            // a foreground launch on an unlocked device (docs/simsecurity.md, row 51).
            if control.needsUser { states.formIntersection([.unlocked]) }
            return SecretPlace(
                description:
                    "keychain \(key.itemClass) \(name) (\(item.accessible)\(item.synchronizable ? ", synchronizable" : "")"
                    + "\(control.description))",
                states: states, protection: .keychain(accessible: item.accessible, synchronizable: item.synchronizable),
                needsUser: control.needsUser)
        }
    }
}

/// What a keychain item's access control (`accc`, as a dump shows it: `aku;flags=8`) asks of a
/// read of its secret: whether it needs the user, and the flags' names for findings.
struct AccessControlNeeds {
    var needsUser = false
    var description = ""

    static let named: [(SecAccessControlCreateFlags, String)] = [
        (.userPresence, ".userPresence"), (.biometryAny, ".biometryAny"), (.biometryCurrentSet, ".biometryCurrentSet"),
        (.devicePasscode, ".devicePasscode"),
    ]

    init(_ item: KeychainItemRecord) { self.init(accessControl: item.attributes["accc"]) }

    /// From the access control's text in a dump (`aku;flags=8`), nil for an item without one.
    init(accessControl text: String?) {
        guard let text, let range = text.range(of: ";flags="),
            let raw = UInt(text[range.upperBound...])
        else { return }
        let flags = SecAccessControlCreateFlags(rawValue: raw)
        let names = Self.named.filter { flags.contains($0.0) }.map(\.1)
        guard !names.isEmpty else { return }
        needsUser = true
        description = ", access control " + names.joined(separator: " ")
    }
}

/// keeps-availability's facts about one seeded secret: where the old build kept it (after the seed)
/// and where the new build keeps it (after its first launch), each with the lock states it reads in.
struct AvailabilityFact: Sendable, Hashable {
    var label: String
    var old: SecretPlace?
    var new: SecretPlace?
}

/// locked-reads: seed, upgrade (the first launch unlocked), read where each secret is on the
/// device before and after, then verify while locked after first unlock and, after a reboot,
/// before first unlock; the device is unlocked again at the end (keeps-availability).
enum LockedReadsSteps: ScenarioSteps {
    static let moments = Moment.upgraded

    static func run(_ cell: CellRunner, on device: ScenarioDevice, _ evidence: inout CellEvidence) throws {
        guard let old = cell.old else { return }
        let (declarations, new) = (cell.declarations, cell.new)
        // On a route the reference is the first build's stores, read before the hops.
        try cell.seed(device, &evidence, hops: false)
        var facts: [AvailabilityFact] = []
        let seededKeychain = try device.keychainItems()
        for label in evidence.seeded {
            let store = declarations.old.secret(label)?.store
            let place = try store.flatMap { try SecretPlace.find($0, on: device.device, app: old, keychain: seededKeychain) }
            facts.append(AvailabilityFact(label: label, old: place))
        }
        try cell.hop(device)
        try cell.upgrade(device, &evidence)
        let upgradedKeychain = try device.keychainItems()
        for index in facts.indices {
            let store = declarations.new.secret(facts[index].label)?.store
            facts[index].new = try store.flatMap {
                try SecretPlace.find($0, on: device.device, app: new, keychain: upgradedKeychain)
            }
        }
        var lockedReads = LockedReadsFacts(availability: facts)
        try device.session.lock()
        let locked = try device.launch(new, .verify, extraArguments: Explorer.shortWait)
        lockedReads.lockStates[locked.index] = .locked
        try device.session.shutdown()
        try device.session.boot(lockState: .beforeFirstUnlock)
        let beforeFirstUnlock = try device.launch(new, .verify, extraArguments: Explorer.shortWait)
        lockedReads.lockStates[beforeFirstUnlock.index] = .beforeFirstUnlock
        evidence.facts = .lockedReads(lockedReads)
        try device.session.unlock()
    }
}

/// What locked-reads leaves for keeps-availability: where each seeded secret was kept before the
/// upgrade and after it, and the lock state of each verify launch (by its index) that did not run unlocked.
struct LockedReadsFacts: Sendable {
    var availability: [AvailabilityFact]
    var lockStates: [Int: LockState] = [:]
}

extension CellEvidence {
    /// locked-reads' facts (nil in other cells, or before the scenario read the device).
    var lockedReads: LockedReadsFacts? {
        if case .lockedReads(let facts) = facts { facts } else { nil }
    }
}

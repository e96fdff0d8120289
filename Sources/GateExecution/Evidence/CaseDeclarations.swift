import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity
import UpgradeContract

/// What a cell's builds declare they keep (their manifests' `keeps`), resolved for one case: the
/// labels of the secrets, and the bookkeeping items the runner leaves alone where it removes data.
/// Every scenario, checker, snapshot and leak scan works from this, never from a build's names.
struct CaseDeclarations: Sendable {
    let caseID: String
    /// The old build's declaration (empty for a fresh install or a build that declares nothing).
    let old: BuildDeclaration
    let new: BuildDeclaration
    /// The new build's declared policies (``BuildPolicies``), and the old build's.
    let newPolicies: BuildPolicies
    let oldPolicies: BuildPolicies
    /// Every secret label either build declares: the old build's in its order, then the new build's others.
    let secretLabels: [String]
    /// Where the case's declared secrets are on a device: made once for the cell, not per launch
    /// (each value is derived from the case id and its shape).
    let locator: SecretLocator
    /// The shape each secret label is seeded in, in this cell (``ShapeRotation``); every launch of the
    /// cell is given them (``SecretShape/arguments(for:)``). Empty: every label ``SecretShape/alnum``.
    let shapes: [String: SecretShape]
    /// The shapes each label's stores in this cell's builds can hold and the builds allow.
    let allowedShapes: [String: [SecretShape]]

    /// The secret labels the build installed before the new one (a route's last hop, else the old
    /// build) declares in a keychain item: what survives an uninstall, as on iOS.
    let previousKeychainLabels: Set<String>

    init(
        old: Build?, via: [Build] = [], new: Build, caseID: String, scenario: Scenario? = nil,
        runScenarios: [Scenario]? = nil
    ) {
        self.init(
            caseID: caseID, old: old?.manifest.keeps, new: new.manifest.keeps,
            oldPolicies: old?.manifest.policies, newPolicies: new.manifest.policies,
            previous: (via.last ?? old)?.manifest.keeps, via: via.compactMap(\.manifest.keeps), scenario: scenario,
            runScenarios: runScenarios)
    }

    /// The declarations `old` and `new` (nil: nothing declared), resolved for `caseID`, and the
    /// builds' policies (nil: none declared). With `scenario`, each secret label takes the shape
    /// ``ShapeRotation`` gives the cell among those every build's store for it holds (`via`: a
    /// route's intermediate builds; `runScenarios`: the run's scenarios, which turn a label's
    /// rotation off `empty` where all of them would seed it so); without, every label is
    /// ``SecretShape/alnum``.
    init(
        caseID: String, old: BuildDeclaration?, new: BuildDeclaration?, oldPolicies: BuildPolicies? = nil,
        newPolicies: BuildPolicies? = nil, previous: BuildDeclaration? = nil, via: [BuildDeclaration] = [],
        scenario: Scenario? = nil, runScenarios: [Scenario]? = nil
    ) {
        self.caseID = caseID
        self.old = (old ?? BuildDeclaration(secrets: [])).resolved(caseID: caseID)
        self.new = (new ?? BuildDeclaration(secrets: [])).resolved(caseID: caseID)
        self.oldPolicies = oldPolicies ?? BuildPolicies()
        self.newPolicies = newPolicies ?? BuildPolicies()
        previousKeychainLabels = Set(
            ((previous ?? old)?.secrets ?? []).filter { $0.store.location == .keychain }.map(\.label))
        var labels = self.old.secretLabels
        for label in self.new.secretLabels where !labels.contains(label) { labels.append(label) }
        secretLabels = labels
        var allowed: [String: [SecretShape]] = [:]
        var shapes: [String: SecretShape] = [:]
        for label in labels {
            let items = ([old] + via + [new]).compactMap { $0?.secret(label) }
            allowed[label] = ShapeRotation.allowed(locations: items.map(\.store.location), narrowed: items.map(\.shapes))
            if let scenario {
                shapes[label] = ShapeRotation.shape(
                    caseID: caseID, label: label, scenario: scenario, allowed: allowed[label]!, runScenarios: runScenarios)
            }
        }
        allowedShapes = allowed
        self.shapes = shapes
        locator = SecretLocator(caseID: caseID, labels: labels, shapes: shapes)
    }

    /// Whether the new build declares that a reinstall keeps the user signed in.
    var keepsCredentials: Bool { newPolicies.reinstallPolicy == .keepsCredentials }

    /// What a verify launch after a reinstall must read `label` as when the new build keeps
    /// credentials across a reinstall (``ReinstallPolicy/keepsCredentials``): `found` for a secret the
    /// previous build kept in the keychain (which survives the uninstall), `missing` for one it kept
    /// in its container (which does not). Nil under the sweeps policy.
    func keptAcrossReinstall(_ label: String) -> ItemResult? {
        guard keepsCredentials else { return nil }
        return previousKeychainLabels.contains(label) ? .found : .missing
    }

    /// No declaration at all (evidence made by hand, in tests).
    static let none = CaseDeclarations(caseID: "", old: nil, new: nil)

    /// Whether `name` (a status item's name) is a declared secret of either build.
    func isSecret(_ name: String) -> Bool { old.secret(name) != nil || new.secret(name) != nil }

    /// The labels, among `names`, that the old build declares as secrets (what its seed launch seeded).
    func seeded(_ names: [String]) -> [String] { Set(names.filter { old.secret($0) != nil }).sorted() }

    /// What a verify launch after marker-without-data removed the app's keychain data must read
    /// `label` as when the new build keeps it outside the keychain (a file, a preference): `found`,
    /// since the scenario removed only keychain items. Nil for a secret it keeps in the keychain,
    /// which must read missing.
    func keptOutsideKeychain(_ label: String) -> ItemResult? {
        guard let store = new.secret(label)?.store, store.location != .keychain else { return nil }
        return .found
    }

    /// Whether a keychain item is one of either build's bookkeeping items (same class, service or
    /// server, and account; any access group).
    func isBookkeeping(_ item: KeychainItemRecord) -> Bool {
        (old.bookkeeping + new.bookkeeping).contains { declared in
            guard case .keychain(let key) = declared.store else { return false }
            return Self.matches(key, item)
        }
    }

    /// Whether a preference key of the app's own domain (`suite` nil) or of an app group's is one of
    /// either build's bookkeeping items (an install marker, a schema version): a migration marker,
    /// not legacy data.
    func isBookkeepingPreference(_ key: String, suite: String?) -> Bool {
        (old.bookkeeping + new.bookkeeping).contains { declared in
            if case .preference(let declaredKey, let declaredSuite) = declared.store {
                return declaredKey == key && declaredSuite == suite
            }
            return false
        }
    }

    /// The keychain item the new build declares for `label` (a secret or a bookkeeping item).
    func newKeychainItem(_ label: String) -> KeychainItemDeclaration? {
        for item in new.secrets + new.bookkeeping where item.label == label {
            if case .keychain(let key) = item.store { return key }
        }
        return nil
    }

    /// Whether `item` on the device is the declared item `key`. A service, server or account the
    /// declaration leaves out is the empty one, as the keychain stores an item added without it.
    static func matches(_ key: KeychainItemDeclaration, _ item: KeychainItemRecord) -> Bool {
        guard key.itemClass == item.itemClass, key.account == (item.account ?? "") else { return false }
        if let accessGroup = key.accessGroup, accessGroup != item.accessGroup { return false }
        switch item.itemClass {
        case "inet": return (key.server ?? "") == (item.attributes["srvr"] ?? "")
        default: return (key.service ?? "") == (item.service ?? "")
        }
    }

    /// The label a store operation's subject belongs to, in either declaration (nil: not a declared item).
    func label(of subject: SeamSubject) -> String? {
        for item in old.secrets + new.secrets + old.bookkeeping + new.bookkeeping {
            switch item.store {
            case .preference(let key, _) where subject.store == "preferences" && subject.name == key: return item.label
            case .propertyList(let file, _) where subject.store == "file" && subject.name == file: return item.label
            case .archive(let file, _) where subject.store == "file" && subject.name == file: return item.label
            case .json(let file, _, nil) where subject.store == "file" && subject.name == file: return item.label
            case .groupPropertyList(_, let file, _) where subject.store == "file" && subject.name?.hasSuffix(file) == true:
                return item.label
            case .json(let file, _, .some) where subject.store == "file" && subject.name?.hasSuffix(file) == true:
                return item.label
            case .appGroupFile(_, let file) where subject.store == "file" && subject.name?.hasSuffix(file) == true:
                return item.label
            case .keychain(let key)
            where subject.store == key.itemClass && subject.account == key.account
                && (subject.service ?? "") == ((key.itemClass == "inet" ? key.server : key.service) ?? ""):
                return item.label
            default: continue
            }
        }
        return nil
    }

    /// The secret labels any of `builds` declares, sorted (for the leak scan of a whole run).
    static func secretLabels(of builds: some Sequence<Build>) -> [String] {
        Set(builds.flatMap { $0.manifest.keeps?.secretLabels ?? [] }).sorted()
    }
}

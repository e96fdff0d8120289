import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

/// Where a case's secrets are on a device right now: in a keychain item the app can reach, in a
/// legacy store (the app's preferences or a file in its data container or one of its app groups'
/// containers), both, or nowhere.
///
/// The runner knows the case's secrets (they derive from the case id) and looks for their bytes in
/// memory; nothing it finds is written anywhere, only where it was found.
struct SecretLocator {
    struct Place: OptionSet, Hashable {
        let rawValue: Int
        static let keychain = Place(rawValue: 1)
        static let legacy = Place(rawValue: 2)
    }

    let secrets: [(label: String, value: Data)]
    /// The labels, in the order given.
    let labels: [String]

    /// The locator of the secrets `labels` (the cell's declared secrets) of case `caseID`.
    init(caseID: String, labels: [String]) {
        secrets = CaseSecrets(caseID: caseID).labelled(labels).map { ($0.label, Data($0.value.utf8)) }
        self.labels = labels
    }

    /// Each secret's places on the device `session` holds, for the app `build` (its access groups and
    /// data container). `keychain`: the device's items, read by the caller (``ScenarioDevice/keychainItems()``).
    func locate(on session: DeviceSession, app build: Build, keychain: [KeychainItemRecord]) -> [String: Place] {
        let groups = Set(build.identity.accessGroups)
        let items = keychain.filter { groups.contains($0.accessGroup) }.compactMap(\.data)
        var legacy: [Data] = []
        // The data container (its tmp/ holds the status file, not the app's data) and the app's groups' containers.
        let containers =
            [session.dataContainer(build.manifest.bundleID)]
            + build.identity.applicationGroups.map { session.groupContainer($0) }
        for container in containers.compactMap({ $0 }) {
            legacy += session.files(in: container, pruning: ["tmp"]).compactMap(\.contents)
        }
        var places: [String: Place] = [:]
        for (label, value) in secrets {
            var place: Place = []
            if items.contains(where: { $0.range(of: value) != nil }) { place.insert(.keychain) }
            if legacy.contains(where: { $0.range(of: value) != nil }) { place.insert(.legacy) }
            places[label] = place
        }
        return places
    }
}

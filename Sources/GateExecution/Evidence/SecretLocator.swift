import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity
import UpgradeContract

/// Where a case's secrets are on a device right now: in a keychain item the app can reach, in a
/// legacy store (the app's preferences or a file in its data container or one of its app groups'
/// containers), both, or nowhere.
///
/// The runner knows the case's secrets (they derive from the case id and the cell's shapes) and
/// looks for their bytes in memory, as the stores keep text (raw, XML-escaped in an XML plist,
/// UTF-16 in a binary plist or archive, JSON-escaped); nothing it finds is written anywhere, only
/// where it was found.
///
/// A secret of the ``SecretShape/bytes`` shape is also looked for as its ``SecretShape/alnum``
/// value, which a build that asks for it as text seeds instead (``CaseSecrets``). An empty secret
/// has no bytes to find: it is placed where the build launched declares it (a keychain item, else
/// a legacy store), so the device neither contradicts a report of it nor shows it left behind, and
/// reads of it are judged by the status files alone.
struct SecretLocator {
    struct Place: OptionSet, Hashable {
        let rawValue: Int
        static let keychain = Place(rawValue: 1)
        static let legacy = Place(rawValue: 2)
    }

    /// Each label's forms to look for (any one found places it); none for an empty secret.
    let secrets: [(label: String, forms: [Data])]
    /// The labels, in the order given.
    let labels: [String]

    /// The locator of the secrets `labels` (the cell's declared secrets) of case `caseID`, in `shapes`.
    init(caseID: String, labels: [String], shapes: [String: SecretShape] = [:]) {
        self.secrets = Self.forms.value(Key(caseID: caseID, labels: labels, shapes: shapes)) {
            Self.forms(caseID: caseID, labels: labels, shapes: shapes)
        }
        self.labels = labels
    }

    /// Each label's forms, made once per process for each case, labels and shapes: every cell of a
    /// run (and the run's shape coverage, twice) asks for the same few, and making one derives the
    /// value and each stored encoding of each secret.
    private static let forms = Memo<Key, [(label: String, forms: [Data])]>()

    private struct Key: Hashable {
        let caseID: String
        let labels: [String]
        let shapes: [String: SecretShape]
    }

    private static func forms(
        caseID: String, labels: [String], shapes: [String: SecretShape]
    ) -> [(
        label: String, forms: [Data]
    )] {
        let secrets = CaseSecrets(caseID: caseID, shapes: shapes)
        return labels.map { label in
            let value = secrets.data(label)
            var forms = SecretPatterns.storedForms(of: value).map { Data($0) }
            if !secrets.shape(label).isUTF8 {
                forms += SecretPatterns.storedForms(of: CaseSecrets.value(caseID: caseID, label: label, shape: .alnum)).map {
                    Data($0)
                }
            }
            return (label, forms)
        }
    }

    /// The app's keychain items that hold each secret, named `genp com.example.notes.v2/session`
    /// (names only): more than one after a clean migration is a duplicate (interleavings).
    func holders(app build: Build, keychain: [KeychainItemRecord]) -> [String: [String]] {
        let groups = Set(build.identity.accessGroups)
        let items = keychain.filter { groups.contains($0.accessGroup) }
        var result: [String: [String]] = [:]
        for (label, forms) in secrets where !forms.isEmpty {
            result[label] = items.filter { item in
                guard let data = item.data else { return false }
                return forms.contains { ByteSearch.holds(data, $0) }
            }.map { "\($0.itemClass) \([$0.service, $0.account].compactMap { $0 }.joined(separator: "/"))" }.sorted()
        }
        return result
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
        for (label, forms) in secrets {
            guard !forms.isEmpty else {
                let declared = build.manifest.keeps?.secret(label)?.store.location
                places[label] = declared == nil ? [] : declared == .keychain ? .keychain : .legacy
                continue
            }
            var place: Place = []
            if items.contains(where: { item in forms.contains { ByteSearch.holds(item, $0) } }) { place.insert(.keychain) }
            if legacy.contains(where: { file in forms.contains { ByteSearch.holds(file, $0) } }) { place.insert(.legacy) }
            places[label] = place
        }
        return places
    }

}

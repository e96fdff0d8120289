import Foundation
import SimRuntime
@testable import SimSecurity

/// A keychain for one test: in memory unless a path is given.
func makeKeychain(
    identity: AppIdentity = .testHost, lock: LockState = .unlocked, runtime: String = "iOS 17.5",
    passcode: Bool = true, path: String? = nil, seam: Seam = Seam(),
    clock: @escaping @Sendable () -> Date = { Date(timeIntervalSinceReferenceDate: 800_000_000) }
) -> Keychain {
    Keychain(
        .init(
            storage: path.map { .file($0) } ?? .inMemory, identity: identity, lockState: .fixed(lock),
            runtime: RuntimeVersion(runtime)!, clock: clock, passcodeSet: passcode, seam: seam))
}

/// An app of team `TEAM000001` with the given extra groups.
func appIdentity(
    _ bundle: String = "com.example.ledger", team: String = "TEAM000001",
    keychainGroups: [String] = [], appGroups: [String] = []
) -> AppIdentity {
    AppIdentity(
        bundleID: bundle, applicationIdentifier: "\(team).\(bundle)",
        keychainAccessGroups: keychainGroups, applicationGroups: appGroups)
}

typealias Query = [CFString: Any]

/// A generic password query for `account` in service `svc`.
func password(_ account: String, service: String = "svc", _ extra: Query = [:]) -> Query {
    var query: Query = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: account, kSecAttrService: service]
    query.merge(extra) { _, new in new }
    return query
}

extension Keychain {
    func add(_ query: Query) -> OSStatus { add(query as CFDictionary, nil) }

    func copy(_ query: Query) -> (status: OSStatus, result: AnyObject?) {
        var result: CFTypeRef?
        let status = copyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    func update(_ query: Query, _ changes: Query) -> OSStatus { update(query as CFDictionary, changes as CFDictionary) }

    func delete(_ query: Query) -> OSStatus { delete(query as CFDictionary) }

    /// The data stored for `account`, read with the keychain unlocked-or-not as it is.
    func secret(_ account: String, service: String = "svc", _ extra: Query = [:]) -> Data? {
        copy(password(account, service: service, [kSecReturnData: true].merging(extra) { _, new in new })).result as? Data
    }

    /// How many items of `itemClass` exist across every group, regardless of entitlements.
    func count(_ itemClass: String = "genp") -> Int { ((try? dump()) ?? []).filter { $0.itemClass == itemClass }.count }
}

extension Data {
    init(_ string: String) { self = Data(string.utf8) }
}

import Foundation
import SimRuntime
import Testing

@testable import SimSecurity

/// Rows 54-57 of docs/simsecurity.md's behaviour table: iCloud Keychain between two devices of one
/// user (``Keychain/synchronize(with:since:passwordsOnly:digest:)``).
private func sync(
    _ here: Keychain, _ there: Keychain, since base: KeychainSyncState? = nil, passwordsOnly: Bool = false
) throws -> KeychainSyncOutcome {
    try here.synchronize(with: there, since: base, passwordsOnly: passwordsOnly) { $0.base64EncodedString() }
}

private func at(_ seconds: Double) -> @Sendable () -> Date { { Date(timeIntervalSinceReferenceDate: seconds) } }

private var synced: Query { [kSecAttrSynchronizable: true] }
private var any: Query { [kSecAttrSynchronizable: kSecAttrSynchronizableAny] }

let rowsSync: [Row] = [
    Row(54, "synchronizable items travel both ways with every attribute; local and ThisDeviceOnly ones stay") {
        let here = makeKeychain()
        let there = makeKeychain()
        #expect(here.add(password("token", [kSecValueData: Data("t1"), kSecAttrLabel: "Token"].merging(synced) { $1 })) == 0)
        #expect(there.add(password("refresh", [kSecValueData: Data("r1")].merging(synced) { $1 })) == 0)
        #expect(here.add(password("local", [kSecValueData: Data("l1")])) == 0)
        let bound = [kSecValueData: Data("b1"), kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly] as Query
        #expect(here.add(password("bound", bound.merging(synced) { $1 })) == 0)
        let outcome = try sync(here, there)
        #expect(outcome.there.added == 1 && outcome.here.added == 1 && outcome.synced == 2)
        #expect(there.secret("token", synced) == Data("t1") && here.secret("refresh", synced) == Data("r1"))
        let label = there.copy(password("token", [kSecReturnAttributes: true].merging(synced) { $1 })).result as? [String: Any]
        #expect(label?[kSecAttrLabel as String] as? String == "Token")
        #expect(there.secret("local") == nil && there.secret("bound", any) == nil)
        // Before iOS 14 only passwords travel (kSecAttrSynchronizable: "Earlier OS versions synchronize only passwords").
        let key: Query = [
            kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("tag"), kSecValueData: Data("k"),
            kSecAttrSynchronizable: true,
        ]
        #expect(here.add(key) == 0)
        #expect(try sync(here, there, since: outcome.state, passwordsOnly: true).there.added == 0)
        #expect(try sync(here, there, since: outcome.state).there.added == 1)
    },
    Row(55, "an update travels, and a delete travels as a tombstone unless the other side changed the item since") {
        let here = makeKeychain()
        let there = makeKeychain()
        #expect(here.add(password("token", [kSecValueData: Data("t1")].merging(synced) { $1 })) == 0)
        #expect(here.add(password("old", [kSecValueData: Data("o1")].merging(synced) { $1 })) == 0)
        #expect(here.add(password("kept", [kSecValueData: Data("k1")].merging(synced) { $1 })) == 0)
        var state = try sync(here, there).state
        #expect(here.update(password("token", synced), [kSecValueData: Data("t2")]) == 0)
        #expect(here.delete(password("old", synced)) == 0)
        #expect(here.delete(password("kept", synced)) == 0)
        #expect(there.update(password("kept", synced), [kSecValueData: Data("k2")]) == 0)
        let outcome = try sync(here, there, since: state)
        state = outcome.state
        #expect(there.secret("token", synced) == Data("t2"))
        #expect(there.secret("old", synced) == nil)
        // A change beats a concurrent delete: it travels back.
        #expect(here.secret("kept", synced) == Data("k2") && there.secret("kept", synced) == Data("k2"))
        #expect(outcome.there == .init(added: 0, updated: 1, deleted: 1) && outcome.here.added == 1)
        // Without the last sync's state, nothing is a delete: the first sync of a pair is a union.
        #expect(there.delete(password("token", synced)) == 0)
        #expect(try sync(here, there).there.added == 1)
    },
    Row(56, "both sides changed an item: the later modification date wins; at equal dates the side the sync starts from") {
        let here = makeKeychain(clock: at(1_000))
        let there = makeKeychain(clock: at(2_000))
        #expect(here.add(password("token", [kSecValueData: Data("t1")].merging(synced) { $1 })) == 0)
        let state = try sync(here, there).state
        #expect(here.update(password("token", synced), [kSecValueData: Data("here")]) == 0)
        #expect(there.update(password("token", synced), [kSecValueData: Data("there")]) == 0)
        let outcome = try sync(here, there, since: state)
        #expect(outcome.conflicts == 1 && here.secret("token", synced) == Data("there"))
        let left = makeKeychain(clock: at(1_000))
        let right = makeKeychain(clock: at(1_000))
        #expect(left.add(password("token", [kSecValueData: Data("left")].merging(synced) { $1 })) == 0)
        #expect(right.add(password("token", [kSecValueData: Data("right")].merging(synced) { $1 })) == 0)
        #expect(try sync(left, right).conflicts == 1)
        #expect(right.secret("token", synced) == Data("left"))
    },
    Row(57, "an incoming item whose key a device-bound item holds stays out; each keychain changes all or nothing") {
        let here = makeKeychain()
        let there = makeKeychain()
        #expect(here.add(password("token", [kSecValueData: Data("t1")].merging(synced) { $1 })) == 0)
        #expect(here.add(password("other", [kSecValueData: Data("o1")].merging(synced) { $1 })) == 0)
        let bound = [kSecValueData: Data("b1"), kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly] as Query
        #expect(there.add(password("token", bound.merging(synced) { $1 })) == 0)
        let outcome = try sync(here, there)
        #expect(outcome.keptLocal == 1 && outcome.there.added == 1)
        #expect(there.secret("token", synced) == Data("b1") && there.secret("other", synced) == Data("o1"))
        // A failure inside the receiving keychain's transaction leaves it as it was.
        let failing = makeKeychain()
        let database = try #require(failing.store).database
        try database.execute(
            "CREATE TRIGGER refuse AFTER INSERT ON genp WHEN NEW.acct = 'other' BEGIN SELECT RAISE(ABORT, 'refused'); END")
        #expect(throws: (any Error).self) { try sync(here, failing) }
        #expect(failing.count() == 0)
    },
]

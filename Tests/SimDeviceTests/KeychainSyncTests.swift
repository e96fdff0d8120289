import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
import TestSupport

/// `device sync` (docs/device.md, "A second device"): iCloud Keychain between two devices of one
/// user; the pair's state kept on both, so a delete travels at their next sync.
@Suite struct KeychainSyncTests {
    static func item(_ account: String, _ value: String? = nil, sync: Bool = true) -> [CFString: Any] {
        var query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: "com.example.tiny", kSecAttrAccount: account,
            kSecAttrSynchronizable: sync,
        ]
        if let value { query[kSecValueData] = Data(value.utf8) }
        return query
    }

    @Test("a sync brings each device the other's synchronizable items, then their deletes; nothing else moves")
    func syncBothWays() throws {
        let fixture = try Fixture("sync")
        let first = try fixture.bootedWithTinyApp()
        let second = try fixture.set.create(name: "Second Phone", clock: first.record.clock).acquire()
        try second.boot(lockState: .unlocked)
        let identity = try first.device.installedApp("com.example.tiny").record.identity
        let here = Keychain(.init(storage: .file(first.layout.keychainPath), identity: identity))
        let there = Keychain(.init(storage: .file(second.layout.keychainPath), identity: identity))
        #expect(here.add(Self.item("token", "t1") as CFDictionary, nil) == errSecSuccess)
        #expect(here.add(Self.item("local", "l1", sync: false) as CFDictionary, nil) == errSecSuccess)
        #expect(there.add(Self.item("refresh", "r1") as CFDictionary, nil) == errSecSuccess)

        let sync = try first.syncKeychain(with: second)
        #expect(sync.first && !sync.passwordsOnly)
        #expect(sync.outcome.there.added == 1 && sync.outcome.here.added == 1 && sync.outcome.synced == 2)
        #expect(try second.keychainItems().compactMap(\.account).sorted() == ["refresh", "token"])
        #expect(try first.keychainItems().compactMap(\.account).sorted() == ["local", "refresh", "token"])
        // The app is not installed on the second device: its items arrive all the same, as on iOS.
        #expect(second.installedApps().isEmpty)

        // A delete on one device removes the item on the other at the next sync (the pair's state on both).
        #expect(there.delete(Self.item("refresh") as CFDictionary) == errSecSuccess)
        let next = try second.syncKeychain(with: first)
        #expect(!next.first && next.outcome.there.deleted == 1)
        #expect(try first.keychainItems().compactMap(\.account).sorted() == ["local", "token"])
        for session in [first, second] {
            let history = try String(contentsOfFile: session.layout.historyPath, encoding: .utf8)
            #expect(history.components(separatedBy: "\"keychain-sync\"").count == 3)
        }
        // The state names no value: digests only.
        let state = try String(
            contentsOfFile: first.layout.keychainSyncDirectory + "/" + second.udid + ".json", encoding: .utf8)
        #expect(!state.contains("t1") && !state.contains("token"))
        first.release()
        second.release()
    }

    @Test("a device cannot sync with itself: one line naming it, bad input")
    func withItself() throws {
        let fixture = try Fixture("sync-self")
        let session = try fixture.device.acquire()
        #expect(
            throws: DeviceError.syncRefused(
                udid: session.udid, reason: "a device syncs with another device of its user, not with itself")
        ) {
            try session.syncKeychain(with: session)
        }
        #expect(DeviceError.syncRefused(udid: "X", reason: "r").isEnvironmentFailure == false)
        session.release()
    }
}

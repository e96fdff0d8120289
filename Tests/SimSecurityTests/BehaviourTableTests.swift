import Foundation
import SimRuntime
import TestSupport
import Testing
@testable import SimSecurity

/// One case of the behaviour table in docs/simsecurity.md: the row number, what it checks, and the check.
struct Row: CustomTestStringConvertible, Sendable {
    let number: Int
    let title: String
    let check: @Sendable () throws -> Void

    init(_ number: Int, _ title: String, _ check: @escaping @Sendable () throws -> Void) {
        self.number = number
        self.title = title
        self.check = check
    }

    var testDescription: String { String(format: "row %02d: %@", number, title) }
}

/// The behaviour table, row by row. Every row of the specification has at least one case here,
/// named by its number; rows marked I or D check the choice the specification names. Where the
/// seeds and iOS disagree (row 14), iOS wins.
@Suite("Keychain behaviour table")
struct BehaviourTableTests {
    static let all =
        rowsPrimaryKeysAndAdd + rowsGroups + rowsQueries + rowsUpdateDelete + rowsLock + rowsFromLibraries + rowsAccessControl
        + rowsSync

    @Test("behaviour row", arguments: all)
    func row(_ row: Row) throws {
        try row.check()
    }

    @Test("every row of the specification has a case")
    func coverage() {
        #expect(Set(Self.all.map(\.number)) == Set(1...57))
    }
}

let rowsPrimaryKeysAndAdd: [Row] = [
    Row(1, "genp primary key is acct+svce+agrp+sync; label, data, accessibility are not in it") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("1"), kSecAttrLabel: "one"])) == errSecSuccess)
        #expect(
            keychain.add(
                password(
                    "a",
                    [
                        kSecValueData: Data("2"), kSecAttrLabel: "two",
                        kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock,
                    ])) == errSecDuplicateItem)
        #expect(keychain.add(password("b")) == errSecSuccess)
        #expect(keychain.add(password("a", service: "other")) == errSecSuccess)
        #expect(keychain.add(password("a", [kSecAttrSynchronizable: true])) == errSecSuccess)
    },
    Row(1, "the store has a unique index on the genp primary key") {
        let keychain = makeKeychain()
        let sql = try #require(keychain.store).database.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'genpPrimaryKey' AND sql LIKE '%UNIQUE%(CAST(acct AS BLOB), CAST(svce AS BLOB), agrp, sync)%'"
        )
        #expect(sql == 1)
    },
    Row(2, "inet primary key includes server, protocol, port and path") {
        let keychain = makeKeychain()
        let base: Query = [
            kSecClass: kSecClassInternetPassword, kSecAttrAccount: "u", kSecAttrServer: "example.com",
            kSecAttrProtocol: kSecAttrProtocolHTTPS, kSecAttrPort: 443, kSecAttrPath: "/",
        ]
        #expect(keychain.add(base) == errSecSuccess)
        #expect(keychain.add(base) == errSecDuplicateItem)
        #expect(keychain.add(base.merging([kSecAttrPort: 8443]) { _, new in new }) == errSecSuccess)
        #expect(keychain.add(base.merging([kSecAttrProtocol: kSecAttrProtocolHTTP]) { _, new in new }) == errSecSuccess)
        #expect(keychain.add(base.merging([kSecAttrLabel: "x"]) { _, new in new }) == errSecDuplicateItem)
        let attributes = keychain.copy(base.merging([kSecReturnAttributes: true]) { _, new in new }).result as? [String: Any]
        #expect(attributes?["ptcl"] as? String == "htps")
        #expect(attributes?["port"] as? Int == 443)
    },
    Row(3, "keys primary key includes the application tag; cert primary key includes issuer and serial") {
        let keychain = makeKeychain()
        let key: Query = [
            kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("tag"), kSecAttrKeyType: kSecAttrKeyTypeRSA,
            kSecValueData: Data("k"),
        ]
        #expect(keychain.add(key) == errSecSuccess)
        #expect(keychain.add(key) == errSecDuplicateItem)
        #expect(keychain.add(key.merging([kSecAttrApplicationTag: Data("other")]) { _, new in new }) == errSecSuccess)
        let cert: Query = [kSecClass: kSecClassCertificate, kSecAttrIssuer: Data("ca"), kSecAttrSerialNumber: Data([1])]
        #expect(keychain.add(cert) == errSecSuccess)
        #expect(keychain.add(cert) == errSecDuplicateItem)
        #expect(keychain.add(cert.merging([kSecAttrSerialNumber: Data([2])]) { _, new in new }) == errSecSuccess)
    },
    Row(4, "missing primary-key attributes default to empty, so two bare adds collide") {
        let keychain = makeKeychain()
        #expect(keychain.add([kSecClass: kSecClassGenericPassword, kSecValueData: Data("1")]) == errSecSuccess)
        #expect(keychain.add([kSecClass: kSecClassGenericPassword, kSecValueData: Data("2")]) == errSecDuplicateItem)
        let attributes =
            keychain.copy([kSecClass: kSecClassGenericPassword, kSecReturnAttributes: true]).result as? [String: Any]
        #expect(attributes?["acct"] as? String == "")
        #expect(attributes?["svce"] as? String == "")
    },
    Row(5, "a duplicate add leaves the stored item unchanged (no upsert)") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("first")])) == errSecSuccess)
        #expect(keychain.add(password("a", [kSecValueData: Data("second")])) == errSecDuplicateItem)
        #expect(keychain.secret("a") == Data("first"))
    },
    Row(6, "default accessibility is WhenUnlocked (ak) for passwords and keys, Always (dk) for certificates") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(keychain.add([kSecClass: kSecClassCertificate, kSecAttrSerialNumber: Data([9])]) == errSecSuccess)
        #expect(keychain.add([kSecClass: kSecClassKey, kSecAttrApplicationTag: Data("t")]) == errSecSuccess)
        let records = try keychain.dump()
        #expect(records.first { $0.itemClass == "genp" }?.accessible == "ak")
        #expect(records.first { $0.itemClass == "cert" }?.accessible == "dk")
        #expect(records.first { $0.itemClass == "keys" }?.accessible == "ak")
    },
    Row(7, "an add without a group lands in the first keychain-access-group") {
        let identity = appIdentity(keychainGroups: ["TEAM000001.com.example.shared"], appGroups: ["group.com.example"])
        let keychain = makeKeychain(identity: identity)
        #expect(keychain.add(password("a")) == errSecSuccess)
        let attributes = keychain.copy(password("a", [kSecReturnAttributes: true])).result as? [String: Any]
        #expect(attributes?["agrp"] as? String == "TEAM000001.com.example.shared")
    },
    Row(7, "without keychain-access-groups the application identifier is first; app groups are valid groups") {
        let identity = appIdentity(appGroups: ["group.com.example"])
        #expect(identity.accessGroups == ["TEAM000001.com.example.ledger", "group.com.example"])
        let keychain = makeKeychain(identity: identity)
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(keychain.add(password("b", [kSecAttrAccessGroup: "group.com.example"])) == errSecSuccess)
        let groups = try keychain.dump().map(\.accessGroup)
        #expect(groups == ["TEAM000001.com.example.ledger", "group.com.example"])
    },
]

let rowsGroups: [Row] = [
    Row(8, "a query without a group searches every group the app holds") {
        let identity = appIdentity(keychainGroups: ["TEAM000001.shared"], appGroups: ["group.x"])
        let keychain = makeKeychain(identity: identity)
        for (account, group) in [("a", "TEAM000001.shared"), ("b", "TEAM000001.com.example.ledger"), ("c", "group.x")] {
            #expect(keychain.add(password(account, [kSecAttrAccessGroup: group])) == errSecSuccess)
        }
        let all =
            keychain.copy([
                kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitAll,
                kSecReturnAttributes: true,
            ]).result as? [[String: Any]]
        #expect(all?.count == 3)
        #expect(keychain.delete([kSecClass: kSecClassGenericPassword]) == errSecSuccess)
        #expect(keychain.count() == 0)
    },
    Row(9, "an explicit group the app does not hold answers errSecMissingEntitlement on iOS 13 and later") {
        let keychain = makeKeychain(identity: appIdentity())
        let foreign: Query = [kSecAttrAccessGroup: "OTHERTEAM.com.example"]
        #expect(keychain.add(password("a", foreign)) == errSecMissingEntitlement)
        #expect(keychain.copy(password("a", foreign)).status == errSecMissingEntitlement)
        #expect(keychain.update(password("a", foreign), [kSecValueData: Data("x")]) == errSecMissingEntitlement)
        #expect(keychain.delete(password("a", foreign)) == errSecMissingEntitlement)
    },
    Row(9, "before iOS 13 an explicit foreign group on CopyMatching answers errSecItemNotFound") {
        let keychain = makeKeychain(identity: appIdentity(), runtime: "iOS 12.4")
        let foreign: Query = [kSecAttrAccessGroup: "OTHERTEAM.com.example"]
        #expect(keychain.copy(password("a", foreign)).status == errSecItemNotFound)
        #expect(keychain.add(password("a", foreign)) == errSecMissingEntitlement)
    },
    Row(10, "moving an item to a group the app does not hold: -34018 now, -25243 before iOS 13") {
        for (runtime, expected) in [("iOS 17.5", errSecMissingEntitlement), ("iOS 12.4", errSecNoAccessForItem)] {
            let keychain = makeKeychain(identity: appIdentity(), runtime: runtime)
            #expect(keychain.add(password("a")) == errSecSuccess)
            #expect(keychain.update(password("a"), [kSecAttrAccessGroup: "OTHERTEAM.x"]) == expected)
        }
    },
    Row(11, "a process with no keychain entitlement at all gets errSecMissingEntitlement from every call") {
        let keychain = makeKeychain(identity: AppIdentity(bundleID: "com.example.unsigned", applicationIdentifier: nil))
        #expect(keychain.add(password("a")) == errSecMissingEntitlement)
        #expect(keychain.copy(password("a")).status == errSecMissingEntitlement)
        #expect(keychain.update(password("a"), [kSecValueData: Data("x")]) == errSecMissingEntitlement)
        #expect(keychain.delete(password("a")) == errSecMissingEntitlement)
    },
    Row(12, "after a team change old items are invisible to implicit queries and refused to explicit ones") {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        let old = makeKeychain(identity: appIdentity(team: "OLDTEAM001"), path: path)
        #expect(old.add(password("token", [kSecValueData: Data("s")])) == errSecSuccess)
        let new = makeKeychain(identity: appIdentity(team: "NEWTEAM002"), path: path)
        #expect(new.copy(password("token", [kSecReturnData: true])).status == errSecItemNotFound)
        #expect(
            new.copy(password("token", [kSecAttrAccessGroup: "OLDTEAM001.com.example.ledger"])).status == errSecMissingEntitlement
        )
        #expect(new.count() == 1)  // still on the device
    },
]

let rowsQueries: [Row] = [
    Row(13, "without kSecAttrSynchronizable only local items match; Any matches both twins") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("local")])) == errSecSuccess)
        #expect(keychain.add(password("a", [kSecValueData: Data("synced"), kSecAttrSynchronizable: true])) == errSecSuccess)
        #expect(keychain.secret("a") == Data("local"))
        #expect(keychain.secret("a", [kSecAttrSynchronizable: kCFBooleanTrue!]) == Data("synced"))
        let both =
            keychain.copy(
                password(
                    "a",
                    [
                        kSecAttrSynchronizable: kSecAttrSynchronizableAny,
                        kSecMatchLimit: kSecMatchLimitAll, kSecReturnData: true,
                    ])
            ).result as? [Data]
        #expect(both?.count == 2)
        #expect(keychain.delete(password("a")) == errSecSuccess)
        #expect(keychain.count() == 1)
    },
    // The seed (seeds/000) said errSecParam; securityd has no such check and KeychainAccess's CI adds
    // such items on iOS. Where the seeds and iOS disagree, iOS wins.
    Row(14, "ThisDeviceOnly with synchronizable is accepted, as on iOS (where the seeds and iOS disagree, iOS wins)") {
        let keychain = makeKeychain()
        let thisDevice = password(
            "a", [kSecAttrSynchronizable: true, kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly])
        #expect(keychain.add(thisDevice) == errSecSuccess)
        #expect(keychain.add(thisDevice) == errSecDuplicateItem)
        #expect(keychain.add(password("b", [kSecAttrSynchronizable: true])) == errSecSuccess)
        #expect(
            keychain.update(
                password("b", [kSecAttrSynchronizable: true]),
                [kSecAttrAccessible: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]) == errSecSuccess)
        let records = try keychain.dump()
        #expect(records.map(\.accessible) == ["cku", "aku"])
    },
    Row(14, "an item with access control is still not synchronizable (the client's check)") {
        let keychain = makeKeychain()
        let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .userPresence, nil)!
        #expect(keychain.add(password("a", [kSecAttrSynchronizable: true, kSecAttrAccessControl: control])) == errSecParam)
    },
    Row(15, "kSecAttrAccessible in a search is a filter: not found, then duplicate on add") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a")) == errSecSuccess)  // stored ak
        let phantom = password("a", [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly])
        #expect(keychain.copy(phantom).status == errSecItemNotFound)
        #expect(keychain.add(phantom) == errSecDuplicateItem)
    },
    Row(16, "kSecValueData in a search is not a match criterion") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("real")])) == errSecSuccess)
        #expect(
            keychain.copy(password("a", [kSecValueData: Data("other"), kSecReturnData: true])).result as? Data == Data("real"))
        #expect(keychain.delete(password("a", [kSecValueData: Data("other")])) == errSecSuccess)
    },
    Row(17, "an attribute the class does not have answers errSecNoSuchAttr") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecAttrServer: "example.com"])) == errSecNoSuchAttr)
        #expect(keychain.copy(password("a", [kSecAttrServer: "example.com"])).status == errSecNoSuchAttr)
        #expect(keychain.delete(password("a", [kSecAttrServer: "example.com"])) == errSecNoSuchAttr)
        #expect(keychain.add([kSecClass: kSecClassCertificate, kSecAttrApplicationTag: Data("t")]) == errSecNoSuchAttr)
    },
    Row(18, "a missing class is errSecParam; an unknown class is errSecNoSuchClass") {
        let keychain = makeKeychain()
        #expect(keychain.add([kSecAttrAccount: "a"]) == errSecParam)
        #expect(keychain.copy([kSecAttrAccount: "a"]).status == errSecParam)
        #expect(keychain.add([kSecClass: "blob", kSecAttrAccount: "a"]) == errSecNoSuchClass)
        #expect(keychain.delete([kSecClass: "blob"]) == errSecNoSuchClass)
    },
    Row(19, "kSecUseDataProtectionKeychain is silently ignored") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecUseDataProtectionKeychain: true, kSecValueData: Data("x")])) == errSecSuccess)
        #expect(keychain.secret("a", [kSecUseDataProtectionKeychain: true]) == Data("x"))
        #expect(keychain.secret("a") == Data("x"))
    },
    Row(
        20,
        "the default limit returns one object; LimitAll or N returns an array; no hits is not found; a bad limit is errSecParam"
    ) {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("1")])) == errSecSuccess)
        #expect(keychain.copy(password("a", [kSecReturnData: true])).result is Data)
        #expect(
            (keychain.copy(password("a", [kSecReturnData: true, kSecMatchLimit: kSecMatchLimitAll])).result as? [Data])?.count
                == 1)
        #expect((keychain.copy(password("a", [kSecReturnData: true, kSecMatchLimit: 5])).result as? [Data])?.count == 1)
        #expect(keychain.copy(password("a", [kSecReturnData: true, kSecMatchLimit: 1])).result is Data)
        #expect(
            keychain.copy(password("zz", [kSecReturnData: true, kSecMatchLimit: kSecMatchLimitAll])).status == errSecItemNotFound)
        #expect(keychain.copy(password("a", [kSecMatchLimit: "lots"])).status == errSecParam)
        #expect(keychain.copy(password("a", [kSecMatchLimit: 0])).status == errSecParam)
    },
    Row(21, "the first item is the earliest inserted (a documented choice: apps must not rely on it)") {
        let keychain = makeKeychain()
        for (account, value) in [("b", "first"), ("a", "second"), ("c", "third")] {
            #expect(keychain.add(password(account, [kSecValueData: Data(value)])) == errSecSuccess)
        }
        let first = keychain.copy([kSecClass: kSecClassGenericPassword, kSecReturnData: true]).result as? Data
        #expect(first == Data("first"))
    },
    Row(22, "return keys decide the shape: data, persistent ref, attributes, a dictionary for two or more, nothing for none") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
        #expect(keychain.copy(password("a", [kSecReturnData: true])).result as? Data == Data("v"))
        let reference = keychain.copy(password("a", [kSecReturnPersistentRef: true])).result as? Data
        #expect(reference != nil)
        #expect((keychain.copy(password("a", [kSecReturnAttributes: true])).result as? [String: Any])?["acct"] as? String == "a")
        let both =
            keychain.copy(password("a", [kSecReturnData: true, kSecReturnAttributes: true, kSecReturnPersistentRef: true]))
            .result as? [String: Any]
        #expect(both?["v_Data"] as? Data == Data("v"))
        #expect(both?["v_PersistentRef"] as? Data == reference)
        let none = keychain.copy(password("a"))
        #expect(none.status == errSecSuccess && none.result == nil)
        // A persistent reference finds the item it named.
        let byReference =
            keychain.copy([
                kSecClass: kSecClassGenericPassword, kSecValuePersistentRef: reference ?? Data(),
                kSecReturnData: true,
            ]).result as? Data
        #expect(byReference == Data("v"))
        // Data with LimitAll is allowed on iOS.
        #expect(
            (keychain.copy(password("a", [kSecReturnData: true, kSecMatchLimit: kSecMatchLimitAll])).result as? [Data]) == [
                Data("v")
            ])
    },
    Row(23, "kSecReturnRef on a password succeeds with a nil result; adding a password by reference is errSecParam") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
        let reply = keychain.copy(password("a", [kSecReturnRef: true]))
        #expect(reply.status == errSecSuccess && reply.result == nil)
        let all = keychain.copy(password("a", [kSecReturnRef: true, kSecMatchLimit: kSecMatchLimitAll]))
        #expect(all.status == errSecSuccess && all.result == nil)
        #expect(keychain.add(password("b", [kSecValueRef: NSObject()])) == errSecParam)
    },
    Row(24, "an item without data can be added; data+attributes returns a dictionary without v_Data") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a")) == errSecSuccess)
        let reply = keychain.copy(password("a", [kSecReturnData: true, kSecReturnAttributes: true])).result as? [String: Any]
        #expect(reply?["acct"] as? String == "a")
        #expect(reply?["v_Data"] == nil)
    },
    Row(25, "kSecValueData that is not a CFData is errSecParam in add and update") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: "plain string"])) == errSecParam)
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(keychain.update(password("a"), [kSecValueData: "plain string"]) == errSecParam)
    },
]

let rowsUpdateDelete: [Row] = [
    Row(26, "return keys in an update's query are errSecParam on iOS") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(keychain.update(password("a", [kSecReturnData: true]), [kSecValueData: Data("x")]) == errSecParam)
        #expect(keychain.update(password("a", [kSecReturnAttributes: true]), [kSecValueData: Data("x")]) == errSecParam)
    },
    Row(27, "a match limit in an update or delete is errSecParam") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(keychain.update(password("a", [kSecMatchLimit: kSecMatchLimitOne]), [kSecValueData: Data("x")]) == errSecParam)
        #expect(keychain.delete(password("a", [kSecMatchLimit: kSecMatchLimitAll])) == errSecParam)
        #expect(keychain.count() == 1)
    },
    Row(28, "update changes every match, sets mdat and keeps cdat; no match is not found") {
        let clock = ManualClock(Date(timeIntervalSinceReferenceDate: 1_000))
        let keychain = makeKeychain(clock: { clock.now })
        #expect(keychain.add(password("a", service: "s")) == errSecSuccess)
        #expect(keychain.add(password("b", service: "s")) == errSecSuccess)
        clock.now = Date(timeIntervalSinceReferenceDate: 2_000)
        #expect(
            keychain.update([kSecClass: kSecClassGenericPassword, kSecAttrService: "s"], [kSecValueData: Data("new")])
                == errSecSuccess)
        #expect(keychain.secret("a", service: "s") == Data("new") && keychain.secret("b", service: "s") == Data("new"))
        let attributes = keychain.copy(password("a", service: "s", [kSecReturnAttributes: true])).result as? [String: Any]
        #expect(attributes?["cdat"] as? Date == Date(timeIntervalSinceReferenceDate: 1_000))
        #expect(attributes?["mdat"] as? Date == Date(timeIntervalSinceReferenceDate: 2_000))
        #expect(keychain.update(password("zz"), [kSecValueData: Data("x")]) == errSecItemNotFound)
    },
    Row(29, "an update may change a primary-key attribute; a collision is a duplicate and rolls the whole update back") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", service: "old", [kSecValueData: Data("1")])) == errSecSuccess)
        #expect(keychain.update(password("a", service: "old"), [kSecAttrService: "new"]) == errSecSuccess)
        #expect(keychain.secret("a", service: "new") == Data("1"))
        #expect(keychain.add(password("b", service: "new", [kSecValueData: Data("2")])) == errSecSuccess)
        // Both items would collapse onto account "c": the second write collides, nothing changes.
        #expect(
            keychain.update([kSecClass: kSecClassGenericPassword, kSecAttrService: "new"], [kSecAttrAccount: "c"])
                == errSecDuplicateItem)
        #expect(keychain.secret("a", service: "new") == Data("1") && keychain.secret("b", service: "new") == Data("2"))
    },
    Row(30, "an update may change kSecAttrAccessible") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(
            keychain.update(password("a"), [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly])
                == errSecSuccess)
        let records = try keychain.dump()
        #expect(records.first?.accessible == "cku")
    },
    Row(31, "delete removes every match; none is not found; return keys are not checked") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", service: "s")) == errSecSuccess)
        #expect(keychain.add(password("b", service: "s")) == errSecSuccess)
        #expect(
            keychain.delete([kSecClass: kSecClassGenericPassword, kSecAttrService: "s", kSecReturnData: true]) == errSecSuccess)
        #expect(keychain.count() == 0)
        #expect(keychain.delete([kSecClass: kSecClassGenericPassword, kSecAttrService: "s"]) == errSecItemNotFound)
    },
]

let rowsLock: [Row] = [
    Row(32, "WhenUnlocked needs unlocked; AfterFirstUnlock needs a first unlock; Always is always readable") {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        let setup = makeKeychain(path: path)
        for (account, accessible) in [
            ("ak", kSecAttrAccessibleWhenUnlocked), ("ck", kSecAttrAccessibleAfterFirstUnlock),
            ("dk", kSecAttrAccessibleAlways), ("cku", kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly),
        ] {
            #expect(
                setup.add(password(account, [kSecValueData: Data(account), kSecAttrAccessible: accessible])) == errSecSuccess)
        }
        let expectations: [(LockState, [String: OSStatus])] = [
            (.unlocked, ["ak": 0, "ck": 0, "dk": 0, "cku": 0]),
            (.locked, ["ak": errSecInteractionNotAllowed, "ck": 0, "dk": 0, "cku": 0]),
            (
                .beforeFirstUnlock,
                [
                    "ak": errSecInteractionNotAllowed, "ck": errSecInteractionNotAllowed, "dk": 0,
                    "cku": errSecInteractionNotAllowed,
                ]
            ),
        ]
        for (state, answers) in expectations {
            let keychain = makeKeychain(lock: state, path: path)
            for (account, expected) in answers {
                #expect(keychain.copy(password(account, [kSecReturnData: true])).status == expected, "\(account) while \(state)")
            }
        }
    },
    Row(33, "an unavailable class key answers errSecInteractionNotAllowed") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
        keychain.setLockState(.locked)
        #expect(keychain.copy(password("a", [kSecReturnData: true])).status == errSecInteractionNotAllowed)
        keychain.setLockState(.unlocked)
        #expect(keychain.secret("a") == Data("v"))
    },
    Row(34, "while locked even an attributes-only read of a WhenUnlocked item fails; AfterFirstUnlock items still read") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a")) == errSecSuccess)
        #expect(keychain.add(password("c", [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock])) == errSecSuccess)
        keychain.setLockState(.locked)
        #expect(keychain.copy(password("a", [kSecReturnAttributes: true])).status == errSecInteractionNotAllowed)
        #expect(keychain.copy(password("c", [kSecReturnAttributes: true])).status == errSecSuccess)
    },
    Row(35, "adding a WhenUnlocked item while locked fails with the lock error, even when it would be a duplicate") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a")) == errSecSuccess)
        keychain.setLockState(.locked)
        #expect(keychain.add(password("a")) == errSecInteractionNotAllowed)
        #expect(keychain.add(password("b")) == errSecInteractionNotAllowed)
        #expect(keychain.add(password("c", [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock])) == errSecSuccess)
    },
    Row(36, "while locked, a query that matches nothing answers not found") {
        let keychain = makeKeychain(lock: .locked)
        #expect(keychain.copy(password("missing", [kSecReturnData: true])).status == errSecItemNotFound)
    },
    Row(37, "one undecryptable row poisons a LimitAll read; LimitOne only looks at the first row") {
        let keychain = makeKeychain()
        #expect(
            keychain.add(password("a", service: "s", [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock])) == errSecSuccess)
        #expect(keychain.add(password("b", service: "s")) == errSecSuccess)  // ak
        keychain.setLockState(.locked)
        let query: Query = [kSecClass: kSecClassGenericPassword, kSecAttrService: "s", kSecReturnAttributes: true]
        #expect(
            keychain.copy(query.merging([kSecMatchLimit: kSecMatchLimitAll]) { _, new in new }).status
                == errSecInteractionNotAllowed)
        #expect(keychain.copy(query).status == errSecSuccess)
    },
    Row(38, "updating a WhenUnlocked item while locked fails with the lock error") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
        keychain.setLockState(.locked)
        #expect(keychain.update(password("a"), [kSecValueData: Data("w")]) == errSecInteractionNotAllowed)
        keychain.setLockState(.unlocked)
        #expect(keychain.secret("a") == Data("v"))
    },
    Row(39, "delete works while locked for local items (the destructive read-then-delete pattern)") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
        #expect(keychain.add(password("s", [kSecAttrSynchronizable: true])) == errSecSuccess)
        keychain.setLockState(.locked)
        #expect(keychain.copy(password("a", [kSecReturnData: true])).status == errSecInteractionNotAllowed)
        #expect(keychain.delete(password("a")) == errSecSuccess)
        #expect(keychain.delete(password("s", [kSecAttrSynchronizable: true])) == errSecInteractionNotAllowed)
        keychain.setLockState(.unlocked)
        #expect(keychain.copy(password("a")).status == errSecItemNotFound)
    },
    Row(40, "a WhenPasscodeSet item cannot be added without a passcode (errSecAuthFailed)") {
        let query = password("a", [kSecAttrAccessible: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly])
        #expect(makeKeychain(passcode: false).add(query) == errSecAuthFailed)
        #expect(makeKeychain(passcode: true).add(query) == errSecSuccess)
    },
    Row(41, "a match limit inside SecItemAdd is errSecParam (the specification's choice over a silent no-op)") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecMatchLimit: kSecMatchLimitOne])) == errSecParam)
        #expect(keychain.count() == 0)
    },
    // The device-level half of row 42 (uninstall, reinstall, the item is read) is SimDeviceTests' InstallTests.
    Row(42, "the keychain store persists across a reopen by a reinstalled app's identity") {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        do {
            let first = makeKeychain(identity: appIdentity(), path: path)
            #expect(first.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
        }
        let reinstalled = makeKeychain(identity: appIdentity(), path: path)
        #expect(reinstalled.secret("a") == Data("v"))
    },
    Row(43, "a prewarmed launch before first unlock reads WhenUnlocked and AfterFirstUnlock items as -25308") {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        let setup = makeKeychain(path: path)
        #expect(setup.add(password("ak", [kSecValueData: Data("1")])) == errSecSuccess)
        #expect(
            setup.add(
                password(
                    "cku",
                    [
                        kSecValueData: Data("2"),
                        kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                    ])) == errSecSuccess)
        let prewarmed = makeKeychain(lock: .beforeFirstUnlock, path: path)
        #expect(prewarmed.copy(password("ak", [kSecReturnData: true])).status == errSecInteractionNotAllowed)
        #expect(prewarmed.copy(password("cku", [kSecReturnData: true])).status == errSecInteractionNotAllowed)
    },
]

let rowsFromLibraries: [Row] = [
    Row(44, "an account as Data and as a String with the same bytes is one item, found by either") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecAttrAccount: Data("a"), kSecValueData: Data("v")])) == errSecSuccess)
        #expect(keychain.add(password("a")) == errSecDuplicateItem)
        #expect(keychain.secret("a") == Data("v"))
        #expect(keychain.add(password("b")) == errSecSuccess)
        let byData = keychain.copy(password("b", [kSecAttrAccount: Data("b"), kSecReturnAttributes: true]))
        // Each keeps the type it was added with.
        #expect((byData.result as? [String: Any])?["acct"] as? String == "b")
        let asData = keychain.copy(password("a", [kSecReturnAttributes: true])).result as? [String: Any]
        #expect(asData?["acct"] as? Data == Data("a"))
    },
    Row(44, "no Unicode normalisation: NFC and NFD spellings are two items") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("caf\u{E9}")) == errSecSuccess)
        #expect(keychain.add(password("cafe\u{301}")) == errSecSuccess)
        #expect(keychain.count() == 2)
    },
    Row(44, "a number is accepted for a blob attribute as its 4-byte value") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("n", [kSecAttrGeneric: 7])) == errSecSuccess)
        let attributes = keychain.copy(password("n", [kSecReturnAttributes: true])).result as? [String: Any]
        #expect(attributes?["gena"] as? Data == Data([7, 0, 0, 0]))
        #expect(keychain.copy(password("n", [kSecAttrGeneric: Data([7, 0, 0, 0])])).status == errSecSuccess)
    },
    Row(44, "a version-1 store is migrated to byte-compared keys and keeps its items") {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        do {
            let old = makeKeychain(path: path)
            #expect(old.add(password("a", [kSecValueData: Data("v")])) == errSecSuccess)
            let database = try #require(old.store).database
            // Put the file back to schema version 1 and its by-value index.
            try database.execute(
                "DROP INDEX genpPrimaryKey; CREATE UNIQUE INDEX genpPrimaryKey ON genp(acct, svce, agrp, sync); UPDATE tversion SET version = 1"
            )
        }
        let reopened = makeKeychain(path: path)
        #expect(reopened.openError == nil)
        #expect(try #require(reopened.store).database.scalarInt("SELECT max(version) FROM tversion") == 2)
        #expect(reopened.secret("a", [kSecAttrAccount: Data("a")]) == Data("v"))
    },
    Row(45, "return keys take only booleans: kSecReturnData 1 is errSecParam; sync still takes numbers") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("v"), kSecAttrSynchronizable: 0])) == errSecSuccess)
        for key in [kSecReturnData, kSecReturnAttributes, kSecReturnRef, kSecReturnPersistentRef] {
            #expect(keychain.copy(password("a", [key: 1])).status == errSecParam, "\(key)")
        }
        #expect(keychain.copy(password("a", [kSecReturnData: kCFBooleanTrue!])).result as? Data == Data("v"))
    },
    // securityd: keychain/securityd/SecDbQuery.c (`query_get_class` takes the class from the
    // persistent ref; `query_create_with_limit` adds `sync = 0` only when the query has neither
    // kSecAttrSynchronizable nor a row from a persistent ref), read in apple-open-source/macos.
    Row(46, "a query by persistent ref without kSecClass takes the class from the ref, synchronizable or not") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecValueData: Data("local")])) == errSecSuccess)
        #expect(keychain.add(password("s", [kSecValueData: Data("synced"), kSecAttrSynchronizable: true])) == errSecSuccess)
        func reference(_ account: String, _ extra: Query = [:]) throws -> Data {
            let query = password(account, [kSecReturnPersistentRef: true].merging(extra) { _, new in new })
            return try #require(keychain.copy(query).result as? Data)
        }
        let local = try reference("a")
        let synced = try reference("s", [kSecAttrSynchronizable: kSecAttrSynchronizableAny])
        #expect(keychain.copy([kSecValuePersistentRef: local, kSecReturnData: true]).result as? Data == Data("local"))
        #expect(keychain.copy([kSecValuePersistentRef: synced, kSecReturnData: true]).result as? Data == Data("synced"))
        #expect(keychain.update([kSecValuePersistentRef: local], [kSecValueData: Data("new")]) == errSecSuccess)
        #expect(keychain.secret("a") == Data("new"))
        #expect(keychain.delete([kSecValuePersistentRef: synced]) == errSecSuccess)
        #expect(keychain.count() == 1)
        // A ref of another class than kSecClass, and bytes that are not a ref.
        #expect(keychain.copy([kSecClass: kSecClassInternetPassword, kSecValuePersistentRef: local]).status == errSecNoSuchClass)
        #expect(keychain.copy([kSecValuePersistentRef: Data("nonsense")]).status == errSecParam)
    },
    Row(47, "without any keychain group even a malformed query answers errSecMissingEntitlement") {
        let keychain = makeKeychain(identity: AppIdentity(bundleID: "com.example.unsigned", applicationIdentifier: nil))
        #expect(keychain.add([:]) == errSecMissingEntitlement)
        #expect(keychain.copy([:]).status == errSecMissingEntitlement)
        #expect(keychain.update([:], [:]) == errSecMissingEntitlement)
        #expect(keychain.delete([kSecClass: "blob"]) == errSecMissingEntitlement)
        // With an entitlement the same query is malformed.
        #expect(makeKeychain().copy([:]).status == errSecParam)
    },
    Row(48, "kSecAttrCreator and kSecAttrType given non-numeric strings keep them") {
        let keychain = makeKeychain()
        #expect(keychain.add(password("a", [kSecAttrCreator: "crtr", kSecAttrType: "note"])) == errSecSuccess)
        let attributes = keychain.copy(password("a", [kSecReturnAttributes: true])).result as? [String: Any]
        #expect(attributes?["crtr"] as? String == "crtr")
        #expect(attributes?["type"] as? String == "note")
        #expect(keychain.copy(password("a", [kSecAttrType: "note"])).status == errSecSuccess)
    },
    Row(49, "returned attributes carry kSecAttrAccessControl from iOS 11.3; earlier runtimes omit it") {
        for (runtime, expected) in [("iOS 11.3", true), ("iOS 17.5", true), ("iOS 11.2", false)] {
            let keychain = makeKeychain(runtime: runtime)
            #expect(keychain.add(password("a", [kSecAttrAccessible: kSecAttrAccessibleAfterFirstUnlock])) == errSecSuccess)
            let attributes = keychain.copy(password("a", [kSecReturnAttributes: true])).result as? [String: Any]
            let control = attributes?["accc"] as? SecAccessControl
            #expect((control != nil) == expected, "\(runtime)")
            if expected { #expect(control?.protection == "ck") }
        }
    },
]

/// An item whose access control asks for `flags`, in class WhenUnlockedThisDeviceOnly.
func controlled(_ account: String, _ flags: SecAccessControlCreateFlags) -> Query {
    let control = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, flags, nil)!
    return password(account, [kSecAttrAccessControl: control, kSecValueData: Data("secret-\(account)")])
}

/// A keychain as a launch sees it: foreground or not, and its biometry generation.
func launchKeychain(
    path: String, lock: LockState = .unlocked, foreground: Bool = true, generation: Int = 1, passcode: Bool = true
) -> Keychain {
    var configuration = Keychain.Configuration(
        storage: .file(path), identity: .testHost, lockState: .fixed(lock), runtime: RuntimeVersion("iOS 17.5")!,
        passcodeSet: passcode)
    configuration.foreground = foreground
    configuration.biometryGeneration = generation
    return Keychain(configuration)
}

let rowsAccessControl: [Row] = [
    Row(50, "an item's access control is kept with its flags; its attributes read without a prompt, anywhere its class allows") {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        #expect(launchKeychain(path: path).add(controlled("a", [.biometryCurrentSet])) == errSecSuccess)
        let background = launchKeychain(path: path, foreground: false)
        let attributes = background.copy(password("a", [kSecReturnAttributes: true])).result as? [String: Any]
        let control = attributes?["accc"] as? SecAccessControl
        #expect(control?.protection == "aku")
        #expect(control?.flags == [.biometryCurrentSet])
    },
    Row(
        51,
        "a launch that cannot prompt (background, or the device locked) reads an item needing the user as errSecInteractionNotAllowed"
    ) {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        let flags: [SecAccessControlCreateFlags] = [.userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode]
        for (index, flag) in flags.enumerated() {
            #expect(launchKeychain(path: path).add(controlled("a\(index)", flag)) == errSecSuccess)
            // The foreground launch on an unlocked device prompts, and the user authenticates.
            #expect(launchKeychain(path: path).secret("a\(index)") == Data("secret-a\(index)"))
            let background = launchKeychain(path: path, foreground: false).copy(password("a\(index)", [kSecReturnData: true]))
            #expect(background.status == errSecInteractionNotAllowed, "\(flag)")
            let locked = launchKeychain(path: path, lock: .locked).copy(password("a\(index)", [kSecReturnData: true]))
            #expect(locked.status == errSecInteractionNotAllowed, "\(flag)")
        }
        // Without access control, a background launch reads as before.
        #expect(launchKeychain(path: path).add(password("plain", [kSecValueData: Data("v")])) == errSecSuccess)
        #expect(launchKeychain(path: path, foreground: false).secret("plain") == Data("v"))
    },
    Row(52, "turning the passcode off deletes every WhenPasscodeSetThisDeviceOnly item; none can be added without one") {
        // The deletion is a device event: SimDeviceTests' DeviceAuthenticationTests; here the keychain's half.
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        let akpu = password("p", [kSecAttrAccessible: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly])
        #expect(launchKeychain(path: path).add(akpu) == errSecSuccess)
        #expect(launchKeychain(path: path).add(password("other")) == errSecSuccess)
        let removed = try launchKeychain(path: path).deleteItems { $0.accessible == "akpu" }
        #expect(removed == 1)
        #expect(launchKeychain(path: path, passcode: false).copy(password("p")).status == errSecItemNotFound)
        #expect(launchKeychain(path: path, passcode: false).add(akpu) == errSecAuthFailed)
        #expect(launchKeychain(path: path, passcode: false).copy(password("other")).status == errSecSuccess)
    },
    Row(
        53,
        "a biometry change invalidates .biometryCurrentSet items (errSecAuthFailed); .biometryAny and a passcode alternative stay"
    ) {
        let tmp = try TemporaryDirectory()
        let path = tmp.file("keychain.db")
        #expect(launchKeychain(path: path).add(controlled("current", [.biometryCurrentSet])) == errSecSuccess)
        #expect(launchKeychain(path: path).add(controlled("any", [.biometryAny])) == errSecSuccess)
        #expect(
            launchKeychain(path: path).add(controlled("either", [.biometryCurrentSet, .or, .devicePasscode])) == errSecSuccess)
        let changed = launchKeychain(path: path, generation: 2)
        #expect(changed.copy(password("current", [kSecReturnData: true])).status == errSecAuthFailed)
        #expect(changed.secret("any") == Data("secret-any"))
        #expect(changed.secret("either") == Data("secret-either"))
        // The invalidated item is still there: its attributes read, and its key is taken.
        #expect(changed.copy(password("current", [kSecReturnAttributes: true])).status == errSecSuccess)
        #expect(changed.add(controlled("current", [.biometryCurrentSet])) == errSecDuplicateItem)
        // An item added under the new enrollment reads.
        #expect(changed.add(controlled("later", [.biometryCurrentSet])) == errSecSuccess)
        #expect(changed.secret("later") == Data("secret-later"))
    },
]

/// A clock a test moves by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date
    init(_ start: Date) { value = start }
    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
import TestSupport
import SimSupervision

/// `device backup` and `device restore` (docs/device.md, "Backup and restore"): keychain items by
/// protection class, files by their backup rules, app groups, a new device identity.
@Suite struct BackupRestoreTests {
    static let group = "group.com.example.tiny"
    nonisolated(unsafe) static let classes: [(account: String, accessible: CFString, synchronizable: Bool, travels: Bool)] = [
        ("ak", kSecAttrAccessibleWhenUnlocked, false, true),
        ("ck", kSecAttrAccessibleAfterFirstUnlock, false, true),
        ("dk", kSecAttrAccessibleAlways, false, true),
        ("ak-sync", kSecAttrAccessibleWhenUnlocked, true, true),
        ("aku", kSecAttrAccessibleWhenUnlockedThisDeviceOnly, false, false),
        ("cku", kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, false, false),
        ("dku", kSecAttrAccessibleAlwaysThisDeviceOnly, false, false),
        ("akpu", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, false, false),
        ("cku-sync", kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, true, false),
    ]

    /// A device with TinyApp (and its app group) installed, one keychain item per class, and files
    /// in every folder a backup treats differently.
    func seeded(_ fixture: Fixture) throws -> DeviceSession {
        let session = try fixture.device.acquire()
        let app = try session.install(try fixture.build("v1", groups: [Self.group]))
        try session.boot(lockState: .unlocked)
        let keychain = Keychain(.init(storage: .file(session.layout.keychainPath), identity: app.record.identity))
        for item in Self.classes {
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "backup", kSecAttrAccount: item.account,
                kSecAttrAccessible: item.accessible, kSecAttrSynchronizable: item.synchronizable,
                kSecValueData: Data("value-\(item.account)".utf8),
            ]
            #expect(keychain.add(query as CFDictionary, nil) == errSecSuccess, "\(item.account)")
        }
        let data = try #require(session.device.dataContainer("com.example.tiny")).path
        let group = try #require(session.device.groupContainer(Self.group)).path
        for path in [
            "Documents/notes.txt", "Library/Application Support/Session.archive", "Library/Preferences/com.example.tiny.plist",
            "Library/Caches/feed.dat", "tmp/scratch", "Documents/Downloads/big.bin", "Documents/skip.me",
        ] {
            try FileManager.default.createDirectory(
                atPath: ((data + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("file \(path)".utf8).write(to: URL(fileURLWithPath: data + "/" + path))
        }
        #expect(FileProtection.set(.complete, atPath: data + "/Documents/notes.txt") == 0)
        #expect(BackupExclusion.set(true, atPath: data + "/Documents/Downloads") == 0)
        #expect(BackupExclusion.set(true, atPath: data + "/Documents/skip.me") == 0)
        for path in ["Library/Preferences/\(Self.group).plist", "Library/Caches/shared.cache"] {
            try Data("group \(path)".utf8).write(to: URL(fileURLWithPath: group + "/" + path))
        }
        return session
    }

    @Test("a backup holds the travelling keychain items, the files but caches, tmp and excluded ones, and is 0700/0600")
    func backup() throws {
        let fixture = try Fixture("backup")
        let session = try seeded(fixture)
        let folder = fixture.directory.file("backup")
        let manifest = try session.backup(to: folder)
        #expect(manifest.sourceUDID == session.udid)
        #expect(manifest.keychainItems == Self.classes.count { $0.travels })
        #expect(manifest.keychainItemsLeftBehind == Self.classes.count { !$0.travels })
        #expect(Set(manifest.containers.map(\.folder)) == ["apps/com.example.tiny", "groups/\(Self.group)"])
        #expect(manifest.apps.map(\.buildID) == ["v1"])
        let reasons = Dictionary(manifest.leftOut.map { ($0.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(reasons["apps/com.example.tiny/Library/Caches"] == "caches")
        #expect(reasons["apps/com.example.tiny/tmp"] == "tmp")
        #expect(reasons["apps/com.example.tiny/Documents/Downloads"] == "excluded-from-backup")
        #expect(reasons["apps/com.example.tiny/Documents/skip.me"] == "excluded-from-backup")
        #expect(reasons["groups/\(Self.group)/Library/Caches"] == "caches")
        let files = FileTree.files(under: folder)
        #expect(files.contains("apps/com.example.tiny/Documents/notes.txt"))
        #expect(files.contains("apps/com.example.tiny/Library/Application Support/Session.archive"))
        #expect(files.contains("apps/com.example.tiny/Library/Preferences/com.example.tiny.plist"))
        #expect(files.contains("groups/\(Self.group)/Library/Preferences/\(Self.group).plist"))
        for path in files {
            #expect(
                !path.contains("Caches/") && !path.hasPrefix("apps/com.example.tiny/tmp/") && !path.contains("Downloads/"),
                "\(path)")
            #expect(!path.hasSuffix("skip.me") && !path.hasSuffix(".mobile_container_manager.metadata.plist"), "\(path)")
        }
        #expect(manifest.protection["apps/com.example.tiny/Documents/notes.txt"] == .complete)
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        for entry in FileTree.entries(under: folder) {
            #expect(stat(folder + "/" + entry.relative, &info) == 0)
            #expect(info.st_mode & 0o777 == (entry.kind == .directory ? 0o700 : 0o600), "\(entry.relative)")
        }
        // Names and counts only: no value in the manifest.
        let text = try String(contentsOfFile: folder + "/" + BackupManifest.fileName, encoding: .utf8)
        #expect(!text.contains("value-"))
    }

    @Test("a restore onto another device brings back what travelled, with its protection class, under a new identity")
    func restore() throws {
        let fixture = try Fixture("restore")
        let session = try seeded(fixture)
        let folder = fixture.directory.file("backup")
        try session.backup(to: folder)
        let phone = try fixture.set.create(name: "New Phone").acquire()
        try phone.restore(from: folder)
        #expect(phone.udid != session.udid)
        #expect(try phone.device.digestKey() != session.device.digestKey())
        #expect(phone.installedApps().isEmpty, "a restore installs no app")
        let items = try phone.keychainItems()
        #expect(Set(items.map { $0.account ?? "" }) == Set(Self.classes.filter(\.travels).map(\.account)))
        #expect(items.first { $0.account == "ak-sync" }?.synchronizable == true)
        #expect(items.first { $0.account == "ck" }?.data == Data("value-ck".utf8))
        let data = try #require(phone.device.dataContainer("com.example.tiny"))
        let old = try #require(session.device.dataContainer("com.example.tiny"))
        #expect(data.uuid != old.uuid)
        #expect(FileManager.default.contents(atPath: data.path + "/Documents/notes.txt") == Data("file Documents/notes.txt".utf8))
        #expect(FileProtection.stored(atPath: data.path + "/Documents/notes.txt") == .complete)
        #expect(FileManager.default.fileExists(atPath: data.path + "/Library/Preferences/com.example.tiny.plist"))
        #expect(FileManager.default.fileExists(atPath: data.path + "/Library/Caches"), "the standard folders are made")
        #expect(!FileManager.default.fileExists(atPath: data.path + "/Library/Caches/feed.dat"))
        #expect(!FileManager.default.fileExists(atPath: data.path + "/tmp/scratch"))
        #expect(!FileManager.default.fileExists(atPath: data.path + "/Documents/skip.me"))
        let group = try #require(phone.device.groupContainer(Self.group))
        #expect(FileManager.default.fileExists(atPath: group.path + "/Library/Preferences/\(Self.group).plist"))
        #expect(!FileManager.default.fileExists(atPath: group.path + "/Library/Caches/shared.cache"))
        // The release installed afterwards finds its data container.
        let installed = try phone.install(try fixture.build("v2", buildNumber: "200", groups: [Self.group]))
        #expect(installed.record.kind == .install)
        #expect(phone.device.dataContainer("com.example.tiny")?.uuid == data.uuid)
    }

    @Test("a restore is refused on the backup's own device and on a device that is not empty; nothing is written")
    func refusals() throws {
        let fixture = try Fixture("restore-refused")
        let session = try seeded(fixture)
        let folder = fixture.directory.file("backup")
        try session.backup(to: folder)
        #expect(throws: DeviceError.self) { try session.backup(to: folder) }
        try session.erase()
        let own = #expect(throws: DeviceError.self) { try session.restore(from: folder) }
        #expect("\(own.map { "\($0)" } ?? "")".contains("the device the backup was made of"))
        #expect(own?.isEnvironmentFailure == false)
        let busy = try fixture.set.create(name: "Busy").acquire()
        try busy.install(try fixture.build("v1"))
        let refused = #expect(throws: DeviceError.self) { try busy.restore(from: folder) }
        #expect("\(refused.map { "\($0)" } ?? "")".contains("is not empty (1 app(s)"))
        #expect(try busy.keychainItems().isEmpty)
        let notBackup = #expect(throws: DeviceError.self) { try busy.restore(from: fixture.directory.file("nothing")) }
        #expect(notBackup?.isEnvironmentFailure == false)
    }
}

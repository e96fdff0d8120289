import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
import TestSupport
import SimSupervision

/// `device purge-caches` (docs/device.md, "Storage pressure"): iOS empties Library/Caches and tmp of
/// apps that are not running, and app group containers' Library/Caches; nothing else changes.
@Suite struct CachePurgeTests {
    static let group = "group.com.example.tiny"

    @Test("a purge empties every data container's Library/Caches and tmp and every group's Library/Caches, and nothing else")
    func purge() throws {
        let fixture = try Fixture("purge")
        let session = try fixture.device.acquire()
        let app = try session.install(try fixture.build("v1", groups: [Self.group]))
        try session.boot(lockState: .unlocked)
        let keychain = Keychain(.init(storage: .file(session.layout.keychainPath), identity: app.record.identity))
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: "purge", kSecAttrAccount: "session",
            kSecValueData: Data("value".utf8),
        ]
        #expect(keychain.add(query as CFDictionary, nil) == errSecSuccess)
        let data = try #require(session.device.dataContainer("com.example.tiny")).path
        let group = try #require(session.device.groupContainer(Self.group)).path
        let kept = [
            "Documents/notes.txt", "Library/Application Support/Session.archive",
            "Library/Preferences/com.example.tiny.plist",
        ]
        let purged = ["Library/Caches/feed.dat", "Library/Caches/images/a.png", "tmp/scratch", "tmp/upload/part"]
        for path in kept + purged {
            try FileManager.default.createDirectory(
                atPath: ((data + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("file \(path)".utf8).write(to: URL(fileURLWithPath: data + "/" + path))
        }
        #expect(FileProtection.set(.complete, atPath: data + "/Library/Caches") == 0)
        for path in ["Library/Preferences/\(Self.group).plist", "Library/Caches/shared.cache"] {
            try Data("group \(path)".utf8).write(to: URL(fileURLWithPath: group + "/" + path))
        }
        #expect(symlink(data + "/Documents/notes.txt", data + "/Library/Caches/link") == 0)

        let purge = try session.purgeCaches()

        #expect(purge.files == 6)
        let byFolder = Dictionary(
            purge.emptied.map { ("\($0.kind) \($0.identifier) \($0.folder)", ($0.files, $0.folders)) },
            uniquingKeysWith: { first, _ in first })
        #expect(byFolder["data com.example.tiny Library/Caches"].map { [$0.0, $0.1] } == [3, 1])
        #expect(byFolder["data com.example.tiny tmp"].map { [$0.0, $0.1] } == [2, 1])
        #expect(byFolder["appGroup \(Self.group) Library/Caches"].map { [$0.0, $0.1] } == [1, 0])
        #expect(byFolder["appGroup \(Self.group) tmp"] == nil)
        for path in purged { #expect(!FileManager.default.fileExists(atPath: data + "/" + path), "\(path)") }
        for path in kept { #expect(FileManager.default.fileExists(atPath: data + "/" + path), "\(path)") }
        #expect(!FileManager.default.fileExists(atPath: group + "/Library/Caches/shared.cache"))
        #expect(FileManager.default.fileExists(atPath: group + "/Library/Preferences/\(Self.group).plist"))
        // The folders stay, with their class; the link's target is untouched.
        for folder in ["Library/Caches", "tmp"] {
            #expect((try? FileManager.default.contentsOfDirectory(atPath: data + "/" + folder)) == [])
        }
        #expect(FileProtection.stored(atPath: data + "/Library/Caches") == .complete)
        #expect(try session.keychainItems().count == 1)
        let history = try String(contentsOfFile: session.layout.historyPath, encoding: .utf8)
        #expect(history.contains("\"purge-caches\""))
        // A second purge finds nothing.
        #expect(try session.purgeCaches().files == 0)
        session.release()
    }
}

import FileUtility
import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import TestSupport
import Testing

/// A session reads its device's keychain through one connection it keeps open (KeychainReader),
/// and its containers' files once per device state.
@Suite("A session's reads of its device")
struct SessionReadTests {
    /// Adds `count` generic passwords (`<prefix>-0`, ...) from another process, as an app does.
    private func write(_ count: Int, _ prefix: String, to device: Device) throws {
        let run = try ProcessRun.run(
            BuiltProducts.executable("keychain-writer"), [device.layout.keychainPath, String(count), prefix],
            environment: ProcessInfo.processInfo.environment)
        try #require(run.status == 0, "\(run.stderr)")
    }

    private func accounts(_ session: DeviceSession) throws -> [String] {
        try session.keychainItems().compactMap(\.account)
    }

    @Test("reads see what other processes commit, also after the device was copied while the connection was open")
    func seesOtherProcesses() throws {
        let fixture = try Fixture("reader")
        let session = try fixture.device.acquire()
        defer { session.release() }
        #expect(try accounts(session) == [])
        try write(2, "a", to: session.device)
        #expect(try accounts(session) == ["a-0", "a-1"])
        // The copy opens and closes the keychain's files in this process, which would take the
        // open connection's POSIX locks with it: the clone closes the connection first.
        _ = try fixture.set.clone(session.device, name: "Copy")
        try write(1, "b", to: session.device)
        #expect(try accounts(session) == ["a-0", "a-1", "b-0"])
        try write(1, "c", to: session.device)
        try write(1, "d", to: session.device)
        #expect(try accounts(session) == ["a-0", "a-1", "b-0", "c-0", "d-0"])
        #expect(try fixture.device.keychainItems().compactMap(\.account) == ["a-0", "a-1", "b-0", "c-0", "d-0"])
    }

    @Test("reads see another connection of this process, and a keychain made anew by an erase")
    func seesThisProcessAndErase() throws {
        let fixture = try Fixture("reader")
        let session = try fixture.device.acquire()
        defer { session.release() }
        try session.boot()
        #expect(try accounts(session) == [])
        var configuration = Keychain.Configuration(storage: .file(session.layout.keychainPath))
        configuration.durability = .processKill
        let other = Keychain(configuration)
        let query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword, kSecAttrService: "s", kSecAttrAccount: "one", kSecValueData: Data("v".utf8),
        ]
        #expect(other.add(query as CFDictionary, nil) == errSecSuccess)
        #expect(try accounts(session) == ["one"])
        #expect(try accounts(session) == ["one"], "a read with nothing changed gives the same items")
        try session.erase()
        #expect(try accounts(session) == [])
    }

    @Test("the containers' files are read again after each launch, and are what a walk of the container finds")
    func filesFollowLaunches() throws {
        let fixture = try Fixture("reader")
        let session = try fixture.bootedWithTinyApp()
        defer { session.release() }
        func status() throws -> String? {
            let container = try #require(session.dataContainer("com.example.tiny"))
            let file = session.files(in: container, pruning: ["tmp"]).first { $0.relative == "Documents/tiny-status.json" }
            return file?.contents.map { String(decoding: $0, as: UTF8.self) }
        }
        for expected in ["\"counter\":1", "\"counter\":2"] {
            #expect(try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "prefs"])).exitedCleanly)
            let text = try status()
            #expect(text?.contains(expected) == true, "\(text ?? "no status")")
        }
        let container = try #require(session.dataContainer("com.example.tiny"))
        let walked = FileTree.files(under: container.path, pruning: ["tmp"])
        #expect(session.files(in: container, pruning: ["tmp"]).map(\.relative) == walked)
        #expect(walked.contains("Library/Preferences/com.example.tiny.plist"))
        #expect(session.files(of: .data).map(\.relative).contains(container.uuid + "/Documents/tiny-status.json"))
    }

    @Test("a copy's session takes the source's container reads, under its own folder: what it would read itself")
    func copyAdoptsReads() throws {
        let fixture = try Fixture("reader")
        let session = try fixture.bootedWithTinyApp()
        defer { session.release() }
        #expect(try session.launch("com.example.tiny", LaunchOptions(arguments: ["-TinyMode", "seed"])).exitedCleanly)
        let source = try #require(session.dataContainer("com.example.tiny"))
        #expect(session.installedApps().count == 1)
        let copy = try fixture.set.clone(session.device, name: "Copy").acquire()
        defer { copy.release() }
        copy.adoptContainerReads(of: session)
        let adopted = try #require(copy.dataContainer("com.example.tiny"))
        #expect(adopted.path == copy.layout.directory + source.path.dropFirst(session.layout.directory.count))
        #expect(adopted == copy.device.dataContainer("com.example.tiny"))
        #expect(copy.installedApps() == copy.device.installedApps())
        #expect(try copy.launch("com.example.tiny", LaunchOptions()).exitedCleanly)
    }
}

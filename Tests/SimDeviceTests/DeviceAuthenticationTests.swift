import Foundation
import SimDevice
import SimRuntime
import SimSecurity
import Testing
import TestSupport

/// `device passcode --remove` and `device biometry --change` (docs/device.md, "Passcode and
/// biometry"), and what a launch's keychain learns of them and of a background launch.
@Suite struct DeviceAuthenticationTests {
    @Test("turning the passcode off deletes every WhenPasscodeSetThisDeviceOnly item of every app and refuses new ones")
    func passcodeRemoved() throws {
        let fixture = try Fixture("passcode")
        let session = try fixture.device.acquire()
        let app = try session.install(try fixture.build("v1"))
        try session.boot(lockState: .unlocked)
        let keychain = Keychain(.init(storage: .file(session.layout.keychainPath), identity: app.record.identity))
        for (account, accessible) in [
            ("akpu", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly), ("cku", kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly),
        ] {
            let query: [CFString: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "auth", kSecAttrAccount: account,
                kSecAttrAccessible: accessible, kSecValueData: Data("value".utf8),
            ]
            #expect(keychain.add(query as CFDictionary, nil) == errSecSuccess)
        }
        #expect(try session.removePasscode() == 1)
        #expect(session.record.passcodeSet == false)
        #expect(try session.keychainItems().map(\.attributes["acct"]) == ["cku"])
        #expect(try Device(layout: fixture.device.layout).record.passcodeSet == false)
        let history = try String(contentsOfFile: session.layout.historyPath, encoding: .utf8)
        #expect(history.contains("\"passcode-removed\""))
        try session.setPasscode()
        #expect(session.record.passcodeSet)
        session.release()
    }

    @Test("a biometry change moves the enrollment generation, kept in device.json; a device starts at 1")
    func biometryChanged() throws {
        let fixture = try Fixture("biometry")
        let session = try fixture.device.acquire()
        #expect(session.record.biometryGeneration == nil && session.record.currentBiometryGeneration == 1)
        #expect(try session.changeBiometry() == 2)
        #expect(try session.changeBiometry() == 3)
        #expect(try Device(layout: fixture.device.layout).record.currentBiometryGeneration == 3)
        session.release()
    }

    @Test("a launch context's background flag and biometry generation reach the launched keychain's configuration")
    func launchedConfiguration() throws {
        var context = LaunchContext(
            udid: "U", deviceDirectory: "/d", bundleID: "b", identity: .testHost, runtime: RuntimeVersion("iOS 17.5")!,
            keychainPath: "/k", dataContainer: "/c", appGroupContainers: [:], lockStatePath: "/l", clock: Date(),
            arguments: [], faultPlan: .none, mutationLogPath: nil)
        #expect(Keychain.Configuration.launched(context).foreground)
        #expect(Keychain.Configuration.launched(context).biometryGeneration == 1)
        // A context without the new fields (an older launcher's) decodes as a foreground launch.
        #expect(try LaunchContext.decode(context.encoded()).background == nil)
        context.background = true
        context.biometryGeneration = 4
        let decoded = try LaunchContext.decode(context.encoded())
        #expect(!Keychain.Configuration.launched(decoded).foreground)
        #expect(Keychain.Configuration.launched(decoded).biometryGeneration == 4)
    }
}

import Foundation
import Testing

@testable import SimRuntime

/// The launch context's own reader against `JSONDecoder`: the same context from the runner's
/// JSON, and `JSONDecoder` (with its error) for anything the reader does not take.
@Suite struct LaunchContextReaderTests {
    static func decoded(_ text: String) throws -> LaunchContext {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(LaunchContext.self, from: Data(text.utf8))
    }

    static let plain = LaunchContext(
        udid: "UDID", deviceDirectory: "/d", bundleID: "com.example.ledger", identity: .testHost,
        runtime: RuntimeVersion("iOS 16.4")!, keychainPath: "/d/k.db", dataContainer: "/d/data",
        appGroupContainers: [:], lockStatePath: "/d/lock", clock: Date(timeIntervalSince1970: 1_700_000_000),
        arguments: [], faultPlan: .none, mutationLogPath: nil)

    static var full: LaunchContext {
        var context = LaunchContext(
            udid: "9F1C\u{E9}-\"quoted\"\\back/slash\ttab\nline\u{1F600}\u{7}",
            deviceDirectory: "/dev/shm/upgrade-runner-x/devices/A B",
            bundleID: "com.example.ledger",
            identity: AppIdentity(
                bundleID: "com.example.ledger", applicationIdentifier: "TEAM.com.example.ledger",
                keychainAccessGroups: ["TEAM.shared", "TEAM.com.example.ledger"], applicationGroups: ["group.a", "group.b"]),
            runtime: RuntimeVersion("iOS 12.4")!, keychainPath: "/d/keychain-2-debug.db", dataContainer: "/d/data",
            appGroupContainers: ["group.a": "/d/ga", "group.b": "/d/gb"], lockStatePath: "/d/lock",
            clock: Date(timeIntervalSince1970: 1_712_345_678.123_456),
            arguments: ["-UITestVerifyKeychainV2", "-UITestCaseID", "c1"],
            faultPlan: FaultPlan(
                faults: [
                    Fault(.secItemUpdate, call: 3, .status(-25308)), Fault(.fileRemove, call: 1, .dropWrite),
                    Fault(.fsWrite, call: 12, .status(28)),
                ],
                crashAfterMutation: 4, powerLoss: true),
            mutationLogPath: "/d/log", passcodeSet: false, launcherPID: 4_194_303)
        context.background = true
        context.biometryGeneration = 3
        context.appExtension = LaunchContext.AppExtension(
            name: "NotificationService", kind: "notification-service", hostBundleID: "com.example.mail")
        context.steps = StepChannel(grantPath: "/d/grant", reportPath: "/d/report")
        return context
    }

    @Test("the runner's JSON reads as JSONDecoder reads it, every field set or none")
    func sameAsJSONDecoder() throws {
        for context in [Self.plain, Self.full] {
            let text = try context.encoded()
            let read = try #require(LaunchContextReader.read(text), "\(text)")
            #expect(read == context)
            #expect(read == (try Self.decoded(text)))
            #expect(try LaunchContext.decode(text) == context)
        }
    }

    @Test("JSON spelled otherwise than the encoder writes it: spaces, escapes, nulls for optionals, unknown keys")
    func otherSpellings() throws {
        let text = """
             { "udid" : "a\\u00e9\\ud83d\\ude00\\/b", "deviceDirectory":"/d", "bundleID":"b",
              "identity":{"bundleID":"b","applicationIdentifier":null,"keychainAccessGroups":[],"applicationGroups":[ ]},
              "runtime":"iOS 17.5","keychainPath":"/k","dataContainer":"/c","appGroupContainers":{},
              "lockStatePath":"/l","clock":-1.5e3,"arguments":["x"],"faultPlan":{"faults":[],"crashAfterMutation":null},
              "mutationLogPath":null,"passcodeSet":true,"launcherPID":null,"somethingNew":[1,{"a":[true,false]}]}\t
            """
        let read = try #require(LaunchContextReader.read(text))
        #expect(read == (try Self.decoded(text)))
        #expect(read.udid == "a\u{E9}\u{1F600}/b")
        #expect(read.clock == Date(timeIntervalSince1970: -1500))
    }

    @Test(
        "what the reader does not take goes to JSONDecoder, which reads it or names the error",
        arguments: [
            #"{"udid":"a","udid":"b"}"#,  // a duplicate key
            #"{"udid":"\ud800"}"#,  // a lone surrogate
            "{\"udid\":\"a\u{1}\"}",  // a control character
            #"[1, 2"#,  // cut short
            #"{"launcherPID": 01}"#,  // a leading zero
            #"{"launcherPID": 1.0}"#,  // a fraction where an integer is
            #"{"launcherPID": 99999999999}"#,  // out of Int32's range
            #"{"runtime": "Android 14"}"#,  // a runtime RuntimeVersion refuses
            #"{"faultPlan":{"faults":[{"operation":"SecItemAdd","call":1,"action":{"kind":"explode"}}]}}"#,
        ])
    func fallsBack(_ text: String) throws {
        #expect(LaunchContextReader.read(text) == nil)
        #expect(throws: (any Error).self) { try LaunchContext.decode(text) }
    }

    @Test(
        "the runtime reads as RuntimeVersion reads it",
        arguments: [
            "iOS 17.5", "iOS 12.4", "iOS 9.3", "iOS 17.10", "iOS 17.05", "iOS 1.0", "iOS 100.0", "iOS 17.5.1", "iOS 17",
            "iOS 17.", "iOS .5", "iOS 17.x", " iOS 17.5", "iOS  17.5", "com.apple.CoreSimulator.SimRuntime.iOS-13-4", "",
        ])
    func runtime(_ text: String) {
        #expect(LaunchContextReader.runtimeVersion(text) == RuntimeVersion(text))
    }

    @Test("a fraction where the context holds an integer is JSONDecoder's to judge")
    func integralFraction() throws {
        var text = try Self.full.encoded()
        text = text.replacingOccurrences(of: "\"call\":3", with: "\"call\":3.0")
        #expect(LaunchContextReader.read(text) == nil)
        #expect((try? LaunchContext.decode(text)) == (try? Self.decoded(text)))
    }
}

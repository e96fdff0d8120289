// swift-tools-version: 6.0
import PackageDescription

// "Mail", a team's app written as iOS developers write it: its migration code (MailKit) calls only
// Foundation and Security (`UserDefaults.standard`, FileManager, NSKeyedArchiver, property lists,
// SecItem), with no harness call; its automation (MailAutomation) only hands the harness the app's own
// functions: the 1.0 seed, the launch sequence, and what it reports. Depends on upgrade-runner by
// path, as Examples/Notes does (scripts/own-app-example names the dependency upgrade-runner).
let package = Package(
    name: "mail",
    dependencies: [.package(path: "../upgrade-runner")],
    targets: [
        // `import Security`: on iOS the system's; on Linux upgrade-runner's product of that name.
        .target(
            name: "MailKit",
            dependencies: [.product(name: "Security", package: "upgrade-runner", condition: .when(platforms: [.linux]))]),
        .target(name: "MailAutomation", dependencies: ["MailKit", .product(name: "AppHarness", package: "upgrade-runner")]),
        .executableTarget(name: "Mail1", dependencies: ["MailAutomation"]),
        .executableTarget(name: "Mail2", dependencies: ["MailAutomation"]),
        .executableTarget(name: "Mail3", dependencies: ["MailAutomation"]),
        .executableTarget(name: "Mail4", dependencies: ["MailAutomation"]),
        // Known-bad: 2.0 removing the account archive before its keychain write is confirmed.
        .executableTarget(name: "Mail2RemoveFirst", dependencies: ["MailAutomation"]),
        // Known-bad: 3.0 rewriting the settings plist in place (a Data.write without .atomic).
        .executableTarget(name: "Mail3SettingsInPlace", dependencies: ["MailAutomation"]),
        // Known-bad: 3.0 opening the inbox before the migration runs.
        .executableTarget(name: "Mail3ReadsFirst", dependencies: ["MailAutomation"]),
        // Known-bad: 3.0's inbox reading with kSecAttrAccessible in its query.
        .executableTarget(name: "Mail3AccessibleInQuery", dependencies: ["MailAutomation"]),
        // Known-bad: 3.0 without its reinstall sweep, and no policy declared for it.
        .executableTarget(name: "Mail3NoSweep", dependencies: ["MailAutomation"]),
        // 3.0 without the sweep by a declared policy: a reinstall keeps the user signed in.
        .executableTarget(name: "Mail3KeepsSignedIn", dependencies: ["MailAutomation"]),
        // Known-bad: 4.0's rename of the IMAP password drops its port and protocol.
        .executableTarget(name: "Mail4DropsPort", dependencies: ["MailAutomation"]),
        // 3.1 and 4.1: 3.0 and 4.0 with a notification service extension (the same executable) reading the IMAP password.
        .executableTarget(name: "Mail31", dependencies: ["MailAutomation"]),
        .executableTarget(name: "Mail41", dependencies: ["MailAutomation"]),
        // Known-bad: 4.1 whose extension reads only the new place (the internet password).
        .executableTarget(name: "Mail41PreviewNewOnly", dependencies: ["MailAutomation"]),
        // Known-bad: 4.1 whose extension's entitlements lose the keychain group shared with the app.
        .executableTarget(name: "Mail41NotifyNoGroup", dependencies: ["MailAutomation"]),
        // 3.2 and 4.2: the IMAP password synchronizable (iCloud Keychain); 4.2 keeps the item 3.2 reads.
        .executableTarget(name: "Mail32", dependencies: ["MailAutomation"]),
        .executableTarget(name: "Mail42", dependencies: ["MailAutomation"]),
        // Known-bad: 4.2 whose rename deletes the synchronizable item 3.2 reads on the user's other device.
        .executableTarget(name: "Mail42MovesSynced", dependencies: ["MailAutomation"]),
        // The upgrade checked in `swift test`: UpgradeCheck runs the gate's cells on the builds above.
        .testTarget(name: "MailUpgradeTests", dependencies: [.product(name: "UpgradeRunner", package: "upgrade-runner")]),
    ]
)

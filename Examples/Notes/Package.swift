// swift-tools-version: 6.0
import PackageDescription

// "Notes", an app that is not the sample: a team's own package with its migration code and its app
// builds, depending on upgrade-runner by path. The package identity of a path dependency is the
// last component of its path: `.package(path: "../..")` from this folder inside the upgrade-runner
// checkout is named after that folder, so a link named upgrade-runner reaches the checkout.
// scripts/own-app-example builds its copy with this line replaced by the README's dependency by
// version, on a bare repository of the checkout tagged with the last release.
let package = Package(
    name: "notes",
    dependencies: [.package(path: "../upgrade-runner")],
    targets: [
        // The app's migration code, as it is in the iOS app (only the Security import and the
        // UserDefaults type differ on Linux).
        .target(
            name: "NotesKit",
            dependencies: [.product(name: "AppHarness", package: "upgrade-runner", condition: .when(platforms: [.linux]))]),
        // What the automation builds share: the launch hook that runs the migration.
        .target(
            name: "NotesAutomation",
            dependencies: ["NotesKit", .product(name: "AppHarness", package: "upgrade-runner")]),
        .executableTarget(name: "NotesV1", dependencies: [.product(name: "AppHarness", package: "upgrade-runner")]),
        .executableTarget(name: "NotesV2", dependencies: ["NotesAutomation"]),
        // A known-bad build: v2 with the preference removed before its keychain write.
        .executableTarget(name: "NotesV2DeleteFirst", dependencies: ["NotesAutomation"]),
    ]
)

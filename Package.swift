// swift-tools-version: 6.2
import PackageDescription

// Tools version 6.2: a package that depends on this one by version (README, "Gate your own app",
// step 2) builds its targets with their `unsafeFlags` (CSHA256's and CScan's `-O2`, the app builds'
// static link) only when this manifest is 6.2 or later; under an earlier tools version SwiftPM
// refuses the dependency ("the target 'CSHA256' in product 'Security' contains unsafe build flags"),
// a refusal a path dependency never meets. scripts/own-app-example depends by version to keep it so.

// The app builds (the executables the gate launches, hundreds of times a run) are static executables:
// the Swift runtime, Foundation, the C++ standard library, SQLite and the C library are all in the
// binary, so a launch runs no dynamic linker and loads no shared library (README, "Statically linked
// app builds": the cause of the breakage below and the costs, measured side by side).
// A static link takes from an archive only the members that resolve a symbol, and some of
// Foundation's members hold a conformance to `_ObjectiveCBridgeable` that only run-time casts look
// for (`Array`, `Set`, the value types below): without `Array`'s, `[Any] as AnyObject` boxes the
// array instead of making an NSArray, and NSKeyedArchiver writes 0-byte binary archives. Each
// `--undefined` keeps one such member by naming its conformance descriptor. The main module is
// compiled with `-static-stdlib`: it then imports the static Foundation, whose link entries name
// the static libraries below it (CoreFoundation, ICU). The Swift driver does not recompile a module
// for `-static-stdlib` alone, and a main module compiled before it links with undefined CF and ICU
// symbols: the define `STATIC_SWIFT_STDLIB` changes the compile command, so an existing `.build` is
// recompiled too.
//
// The executable is not position-independent (`-no-pie`), so nothing relocates its 74,000 pointers
// at start and the kernel copies none of the pages they would write. The linker warns at each link
// that glibc's `dlopen`, `getaddrinfo` and user and group lookups need the same glibc at run time
// (the app builds run on the machine that built them), and about `mktemp` in FoundationEssentials.
let keptConformances: [String] = [
    "$sSayxGs21_ObjectiveCBridgeable10FoundationMc",  // Array
    "$sShyxGs21_ObjectiveCBridgeable10FoundationMc",  // Set
    "$s20FoundationEssentials14DateComponentsVs21_ObjectiveCBridgeable0A0Mc",
    "$s20FoundationEssentials12DateIntervalVs21_ObjectiveCBridgeable0A0Mc",
    "$s20FoundationEssentials7DecimalVs21_ObjectiveCBridgeable0A0Mc",
    "$s20FoundationEssentials9IndexPathVs21_ObjectiveCBridgeable0A0Mc",
    "$s20FoundationEssentials13URLComponentsVs21_ObjectiveCBridgeable0A0Mc",
    "$s20FoundationEssentials12URLQueryItemVs21_ObjectiveCBridgeable0A0Mc",
]
// Foundation calls an app build makes that reach the simulated device instead (`--wrap`): UserDefaults'
// four CFPreferences calls, to the device's preference stores (Sources/CPreferences, SimPlatform's
// FoundationDefaults), and NSKeyedUnarchiver.unarchivedObject(ofClass:from:) and (ofClasses:from:), which answer a wrong root
// class with iOS's error where corelibs traps (SimPlatform's FoundationUnarchiving).
let wrappedSymbols: [String] = [
    "CFPreferencesCopyAppValue", "CFPreferencesSetAppValue", "CFPreferencesAppSynchronize", "CFPreferencesCopyMultiple",
    "$s10Foundation17NSKeyedUnarchiverC16unarchivedObject7ofClass4fromxSgxm_0A10Essentials4DataVtKAA8NSObjectCRbzAA8NSCodingRzlFZ",
    "$s10Foundation17NSKeyedUnarchiverC16unarchivedObject9ofClasses4fromypSgSayyXlXpG_0A10Essentials4DataVtKFZ",
    // String(contentsOfFile:encoding:) and String(contentsOf:encoding:): iOS's 261 for bytes the
    // encoding cannot read (SimPlatform's FoundationStringReading).
    "$sSS20FoundationEssentialsE14contentsOfFile8encodingS2Sh_SSAAE8EncodingVtKcfC",
    "$sSS20FoundationEssentialsE10contentsOf8encodingSSAA3URLVh_SSAAE8EncodingVtKcfC",
]
let appBuildLinkerFlags: [String] =
    ["-static-executable", "-Xclang-linker", "-no-pie"]
    + keptConformances.flatMap { ["-Xlinker", "--undefined=" + $0] }
    + wrappedSymbols.flatMap { ["-Xlinker", "--wrap=" + $0] }
let appBuildLinking: [LinkerSetting] = [.unsafeFlags(appBuildLinkerFlags, .when(platforms: [.linux]))]

/// An app build's executable target (a Ledger build by default), compiled and linked as above.
func appBuild(
    _ name: String, dependencies: [Target.Dependency] = ["LedgerKit", "AppHarness"], path: String? = nil
) -> Target {
    .executableTarget(
        name: name, dependencies: dependencies, path: path,
        swiftSettings: [
            .unsafeFlags(["-static-stdlib"], .when(platforms: [.linux])),
            .define("STATIC_SWIFT_STDLIB", .when(platforms: [.linux])),
        ],
        linkerSettings: appBuildLinking)
}

// One package, no dependencies beyond the toolchain and the system's SQLite.
// The dependency direction is one way (docs/architecture.md draws it):
// UpgradeContract, FileUtility <- SimRuntime <- SimSecurity (with CSQLite) <- SimPlatform <- AppHarness <- app builds,
// and SimPlatform <- SimDevice <- GateExecution <- UpgradeRunner: an app build links the app side of the simulated
// device (its platform, preferences, protected files, protected-data waits), never the host side (devices, installs,
// launches). The gate's model (GateModel) stands on UpgradeContract and FileUtility alone, so the plan, the engine
// and the artifacts compile without a simulator; GateExecution runs them on devices, and UpgradeRunner is the
// command line over both. Entitlements depends on UpgradeContract alone (for the build manifest, which
// UpgradeContract owns): SimDevice reads an installed build's entitlements with it, and the gate diffs with it, so a
// diff and an install read one way. SimSecurity stands alone: a test host's entitlements are a property list it reads
// itself. The gate talks to app builds only by launching them.

// What every app launch runs is compiled optimised in every configuration, as the C targets CSHA256 and
// CScan are: the launch contract, the file operations, the simulated keychain and platform, the file
// supervision and AppHarness. At -Onone a launch spent a sixth of its CPU in the Swift runtime's
// generic metadata lookups by mangled name (each first use of a generic type with a requirement scans
// the static executable's 5,500 conformance records); the gate makes about 900 launches, and an
// adopter's app builds link the same modules. A Ledger v3 verify launch at -O: 0.75-0.85x the CPU
// (docs/benchmarks.md, "The harness optimised in every configuration"). The price: these modules
// compile slower, and a debugger stepping into them sees optimised code. The sample app's own code
// and the runner's modules keep the configuration's level.
let optimizedInEveryConfiguration: [SwiftSetting] = [.unsafeFlags(["-O"])]

let package = Package(
    name: "upgrade-runner",
    // The library products are what outside teams import, and each is a promise (CHANGELOG.md): the
    // contract, the harness an app build links, Apple's keychain API on Linux (as SimSecurity and as
    // `import Security`), and the gate's Swift API. Every other target is internal to the package;
    // their modules still build for a dependent package, but no product names them.
    products: [
        .library(name: "UpgradeContract", targets: ["UpgradeContract"]),
        .library(name: "SimSecurity", targets: ["SimSecurity"]),
        // `import Security` as on iOS: re-exports SimSecurity.
        .library(name: "Security", targets: ["Security"]),
        // What another package's app builds link: the launch modes, the status file, the platform.
        .library(name: "AppHarness", targets: ["AppHarness"]),
        // The gate from Swift: `ReleaseGate.run(GateRequest(...))`.
        .library(name: "UpgradeRunner", targets: ["UpgradeRunner"]),
        .executable(name: "upgrade-runner", targets: ["upgrade-runner"]),
        // `swift package upgrade-gate`: builds the runner and a package's app builds, runs the gate.
        .plugin(name: "UpgradeGate", targets: ["UpgradeGate"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // zlib's deflate and inflate for run bundles (`bundle`, `replay FILE.tar.gz`), as SQLite is used: the system's.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // SHA-256's block function in C: the debug builds pin every executable by its digest. Optimised in every
        // configuration: a gate hashes each statically linked app build (75-79 MB) once, 4x faster at -O2 than -O0.
        .target(name: "CSHA256", cSettings: [.unsafeFlags(["-O2"])]),
        // The leak scan's inner loop (SecretPatterns' keyed search) in C, optimised in every configuration: the
        // gate scans every artifact for about 2,000 secret patterns, which Swift at -Onone did at a tenth the speed.
        .target(name: "CScan", cSettings: [.unsafeFlags(["-O2"])]),
        // prctl(PR_SET_PDEATHSIG) for launched apps: a variadic C call Swift cannot make.
        .target(name: "CLaunch"),
        // The file supervisor: a seccomp user-notification filter served by a thread of the launched app
        // (SimRuntime's FileSupervision). C, for the filter program and the notification ioctls.
        .target(name: "CFileSupervisor"),
        // The `--wrap` targets of UserDefaults' CFPreferences calls, handed to SimPlatform's hooks.
        .target(name: "CPreferences"),
        // The wire contract between the runner and any app build: launch modes, the status file, the
        // build declaration. Foundation only, so that any package can speak it.
        .target(name: "UpgradeContract", swiftSettings: optimizedInEveryConfiguration),
        // The file operations the device, the platform and the gate share: POSIX folder walks, atomic
        // writes, kernel copies, SHA-256 digests of files, and the words for a failed file operation.
        .target(name: "FileUtility", dependencies: ["CSHA256"], swiftSettings: optimizedInEveryConfiguration),
        // What a launched app's process and SimSecurity share: the seam, the launch context, the identity,
        // the lock state. No file supervisor: SimSecurity stands on it alone (the supervisor installs itself).
        .target(
            name: "SimRuntime", dependencies: ["UpgradeContract", "FileUtility", "CLaunch"],
            swiftSettings: optimizedInEveryConfiguration),
        // The supervision of a launched app's own file calls (the seccomp filter's Swift half), files'
        // data protection classes and backup exclusion (extended attributes read past the filter).
        // SQLite only for its system-call table: the keychain's own database calls pass the filter untrapped.
        .target(
            name: "SimSupervision", dependencies: ["SimRuntime", "FileUtility", "CFileSupervisor", "CSQLite"],
            swiftSettings: optimizedInEveryConfiguration),
        // A test process's Bundle.main named as an iOS test host names it: a constructor that hands
        // over to SimSecurity's TestHostBundle when SIMSECURITY_BUNDLE_ID or _ENTITLEMENTS is set.
        .target(name: "CTestHost"),
        .target(
            name: "SimSecurity", dependencies: ["SimRuntime", "FileUtility", "CSQLite", "CTestHost"],
            swiftSettings: optimizedInEveryConfiguration),
        // `import Security` compiles unchanged. Every target whose code tests `canImport(Security)`
        // depends on it (directly or through AppHarness), so that the answer is always yes and
        // never a matter of build order: the module is in the one modules folder once built.
        .target(name: "Security", dependencies: ["SimSecurity"]),
        // The app side of a simulated device: what a launched app's process uses (Platform, Preferences,
        // ProtectedFiles, ProtectedData). SimDevice, the host side, re-exports it.
        .target(
            name: "SimPlatform", dependencies: ["SimSecurity", "SimRuntime", "SimSupervision", "FileUtility", "CPreferences"],
            swiftSettings: optimizedInEveryConfiguration),
        .target(
            name: "SimDevice",
            dependencies: ["SimPlatform", "SimSecurity", "SimRuntime", "SimSupervision", "Entitlements", "FileUtility"]),
        .target(name: "Entitlements", dependencies: ["UpgradeContract"]),
        // The gate's pure side: plan, scenario and condition ids, findings, engine, verdicts, the artifact
        // layout and documents. No device: `swift build --target GateModel` builds no simulator module.
        .target(name: "GateModel", dependencies: ["UpgradeContract", "FileUtility", "CZlib", "CScan"]),
        // The gate's device side: devices, cells, scenarios and their evidence, exploration, the checkers,
        // and the pipeline that `gate`, `run`, `replay`, `mutants` and `ReleaseGate.run` share.
        .target(
            name: "GateExecution",
            dependencies: [
                "GateModel", "SimDevice", "SimSecurity", "SimRuntime", "SimSupervision", "Entitlements", "UpgradeContract",
                "FileUtility",
            ]),
        // The command line (verbs, options, help, exit codes); re-exports the gate for Swift callers.
        .target(
            name: "UpgradeRunner",
            dependencies: ["GateExecution", "GateModel", "SimDevice", "SimSecurity", "SimRuntime", "Entitlements"]),
        .executableTarget(name: "upgrade-runner", dependencies: ["UpgradeRunner"]),
        .plugin(
            name: "UpgradeGate",
            capability: .command(
                intent: .custom(
                    verb: "upgrade-gate", description: "Build the app builds and the runner, then run the release gate."),
                permissions: [.writeToPackageDirectory(reason: "the gate writes its artifacts folder in the package")])),
        // No tool dependency on upgrade-runner: the plugin builds it with the package's own build
        // (`packageManager.build`), where a tool dependency would build a second copy first.

        // A minimal app build: opens the keychain, reads one item, writes a status file.
        appBuild("TinyApp", dependencies: ["SimPlatform", "SimSecurity", "SimRuntime", "Security"]),

        // App code written for iOS with no harness call: Foundation's own paths on the device, for the tests.
        appBuild("FoundationApp", dependencies: ["SimPlatform"]),
        // The same code (a link to its main.swift) in the default dynamic link, as most teams' packages build.
        .executableTarget(name: "FoundationAppDynamic", dependencies: ["SimPlatform"]),

        // Automation code compiled into every app build: launch modes, the status file, platform adapters.
        .target(
            name: "AppHarness",
            dependencies: ["SimPlatform", "SimRuntime", "SimSupervision", "SimSecurity", "Security", "UpgradeContract"],
            swiftSettings: optimizedInEveryConfiguration),
        // An app build whose hooks wait (the main actor, an actor, a sleep, a continuation), for the harness's tests.
        appBuild("WaitingApp", dependencies: ["AppHarness", "SimSecurity", "Security"]),
        // An app build that keeps its install marker in UserDefaults (2.0) or in a synced file (2.1), for the power-loss tests.
        appBuild("MarkerApp", dependencies: ["AppHarness", "SimSecurity", "Security"]),
        // An app with a notification service extension, one executable for both (issue 39, extension-first).
        appBuild("ExtensionSampleApp", dependencies: ["AppHarness", "SimSecurity", "Security"]),
        // Small app builds for the inputs the runner writes on a build's behalf: a token kept as Data(token.utf8), a
        // Codable JSON session and key paths in an app group's plist and JSON (Tests/UpgradeRunnerTests/Run/InputsGateTests.swift).
        appBuild("InputsApp", dependencies: ["AppHarness", "SimPlatform", "SimSecurity", "Security"]),
        // The sample app "Ledger". Its released builds are frozen, layered like real releases: each release's library
        // holds what that release introduced (Sources/Releases/LedgerRelease<N>, pinned by Sources/Releases/FROZEN.sha256)
        // and builds on the releases before it and the platform modules, never on LedgerKit or a later release
        // (Tests/LedgerTests/FrozenReleaseTests.swift checks both). LedgerKit holds the live code: the builds after v3
        // and the known-bad builds, made of the releases' types.
        .target(
            name: "LedgerRelease1", dependencies: ["AppHarness", "SimSecurity", "Security", "SimRuntime"],
            path: "Sources/Releases/LedgerRelease1"),
        .target(
            name: "LedgerRelease2", dependencies: ["LedgerRelease1", "AppHarness", "SimSecurity", "Security", "SimRuntime"],
            path: "Sources/Releases/LedgerRelease2"),
        .target(
            name: "LedgerRelease3",
            dependencies: ["LedgerRelease2", "LedgerRelease1", "AppHarness", "SimSecurity", "Security", "SimRuntime"],
            path: "Sources/Releases/LedgerRelease3"),
        .target(
            name: "LedgerKit",
            dependencies: [
                "LedgerRelease3", "LedgerRelease2", "LedgerRelease1", "AppHarness", "SimSecurity", "Security", "SimRuntime",
            ]),
        appBuild("LedgerV1", dependencies: ["LedgerRelease1", "AppHarness"]),
        appBuild("LedgerV2", dependencies: ["LedgerRelease2", "AppHarness"]),
        appBuild("LedgerV3", dependencies: ["LedgerRelease3", "AppHarness"]),
        // The team-transfer pair: v3's code re-signed by a new team with no bridge (v4-transfer), the old
        // team's bridge release (v3-bridge) and the new team's first release after it (v5-transfer).
        appBuild("LedgerV3Bridge"),
        appBuild("LedgerV4Transfer"),
        appBuild("LedgerV5Transfer"),

        // Known-bad builds ("mutants"): added below, one executable `Mutant<Name>` each.

        // Helpers for tests and benchmarks.
        .target(name: "TestSupport", dependencies: ["FileUtility"]),
        .executableTarget(
            name: "keychain-writer", dependencies: ["SimSecurity", "SimRuntime"], path: "Sources/Tools/keychain-writer"),
        .executableTarget(name: "bare-exit", path: "Sources/Tools/bare-exit"),
        // A launched process that changes files through Foundation, for the file supervisor's tests.
        .executableTarget(
            name: "file-mutator", dependencies: ["SimRuntime", "SimSupervision", "CSQLite"], path: "Sources/Tools/file-mutator"),
        // The file supervisor's cost per call against no supervision and against ptrace (docs/file-supervision.md).
        .executableTarget(
            name: "supervision-bench", dependencies: ["CFileSupervisor"], path: "Sources/Tools/supervision-bench"),
        // The floor below it: a C program that only exits.
        .executableTarget(name: "bare-exit-c", path: "Sources/Tools/bare-exit-c"),
        .executableTarget(name: "keychain-probe", dependencies: ["SimSecurity"], path: "Sources/Tools/keychain-probe"),
        .executableTarget(
            name: "keychain-bench", dependencies: ["SimSecurity", "SimRuntime", "CSQLite"], path: "Sources/Tools/keychain-bench"),
        .executableTarget(
            name: "launch-bench", dependencies: ["SimDevice", "SimRuntime", "TestSupport", "UpgradeContract"],
            path: "Sources/Tools/launch-bench"),

        .testTarget(name: "UpgradeContractTests", dependencies: ["UpgradeContract"]),
        .testTarget(name: "FileUtilityTests", dependencies: ["FileUtility", "TestSupport", "CSHA256"]),
        .testTarget(
            name: "SimRuntimeTests",
            dependencies: ["SimRuntime", "SimSupervision", "CFileSupervisor", "UpgradeContract", "TestSupport"]),
        .testTarget(name: "SimSecurityTests", dependencies: ["SimSecurity", "SimRuntime", "TestSupport"]),
        // The same iOS-style wrapper compiled in both language modes: only its import line differs from iOS code.
        .testTarget(name: "SimSecurityCompatTests", dependencies: ["SimSecurity", "Security", "SimRuntime"]),
        // Files that import only Foundation, as on iOS: one file's `@_exported import Security` serves all.
        .testTarget(name: "SimSecurityExportedTests", dependencies: ["Security"]),
        .testTarget(
            name: "SimSecurityCompatSwift5Tests",
            dependencies: ["SimSecurity", "Security", "SimRuntime"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        .testTarget(
            name: "SimDeviceTests",
            dependencies: ["SimDevice", "SimRuntime", "SimSupervision", "SimSecurity", "FileUtility", "TestSupport"]),
        .testTarget(
            name: "EntitlementsTests", dependencies: ["Entitlements", "UpgradeContract", "TestSupport"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "AppHarnessTests", dependencies: ["AppHarness", "SimDevice", "SimSecurity", "SimRuntime", "TestSupport"]),
        .testTarget(
            name: "LedgerTests",
            dependencies: [
                "LedgerKit", "LedgerRelease3", "AppHarness", "SimDevice", "SimSecurity", "SimRuntime", "TestSupport",
            ]),
        // The team-transfer builds through the real gate and the command line.
        // What the gate's tests share about the sample builds (GateExecutionTests, UpgradeRunnerTests).
        .target(
            name: "GateTestSupport", dependencies: ["GateExecution", "GateModel", "TestSupport", "UpgradeContract"],
            path: "Sources/GateTestSupport"),
        // The gate's model alone: no device, no process (it builds without SimDevice).
        .testTarget(name: "GateModelTests", dependencies: ["GateModel", "UpgradeContract", "TestSupport"]),
        // The gate on devices: checkers on hand-made evidence, the plan's cells, exploration, small gates.
        .testTarget(
            name: "GateExecutionTests",
            dependencies: [
                "GateExecution", "GateModel", "GateTestSupport", "SimDevice", "SimRuntime", "SimSupervision", "SimSecurity",
                "UpgradeContract",
                "TestSupport",
            ]),
        .testTarget(name: "TransferTests", dependencies: ["UpgradeRunner", "TestSupport"]),
        // The gate from Swift through the public API alone (a plain import, no @testable).
        .testTarget(name: "ReleaseGateAPITests", dependencies: ["UpgradeRunner", "TestSupport"]),
        .testTarget(
            name: "UpgradeRunnerTests",
            dependencies: [
                "UpgradeRunner", "GateExecution", "GateModel", "GateTestSupport", "SimDevice", "SimRuntime", "UpgradeContract",
                "TestSupport",
            ],
            exclude: ["Golden", "Gate/Golden"]),
    ]
)

// Known-bad builds ("mutants"): one anti-pattern of seed 000 each, in Sources/Mutants/Mutant<Name>/;
// builds/mutants/<id>/ names the condition that must catch it.
let knownBadBuilds = [
    "DeleteBeforeWrite",
    "NoReadBack",
    "MigrateEveryLaunch",
    "PrewarmEmptyRead",
    "LockedReadDeletes",
    "AccessibleInQuery",
    "ServiceRenamed",
    "TeamIDChanged",
    "NoReinstallSweep",
    "SecretInLog",
    "ClockInStatus",
    "SecretInStatus",
    "NonIdempotentStep",
    "CrashOnCorruptArchive",
    "SweepBeforeUnlock",
    "JanitorDropsSession",
    "StaleArtefactsResync",
    "AvailabilityNarrowed",
    "SweepGenericOnly",
    "MalformedStopsMigration",
    "SettingsGatedMigration",
    "SunsetMigration",
    "ClockInLaunch",
    "RestoreWipesKeychain",
    "SweepMissesOwnMarker",
    "TrimsToken",
    "PercentEncodesToken",
    "NormalisesToken",
    "ProtectionWidened",
    "OSGatedMigration",
    "SessionInCaches",
    "BiometryBoundTokens",
    "StoredContainerPath",
]
package.targets += knownBadBuilds.map { name in
    appBuild("Mutant" + name, path: "Sources/Mutants/Mutant" + name)
}

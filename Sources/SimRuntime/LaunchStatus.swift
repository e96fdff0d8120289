import Foundation

/// The status file an app build writes at the end of a launch: what it read, wrote and found,
/// with every OSStatus beside the operation that returned it and the runtime. It holds no secret
/// and no digest of one, no clock time and nothing random that is not an input, so the same
/// inputs give the same bytes.
///
/// The app writes it to ``relativePath`` inside its data container; the runner moves it into the
/// run's artifacts after the launch. A launch that leaves none did not finish.
public struct LaunchStatus: Codable, Hashable, Sendable {
    public static let relativePath = "tmp/upgrade-runner-status.json"
    public static let currentFormat = 1

    public var formatVersion: Int
    /// The build id the app was compiled as (`v2`).
    public var build: String
    public var mode: LaunchMode
    public var caseID: String
    public var runtime: String
    /// The schema version stored in the keychain when the launch ended (nil: none, or unreadable).
    public var schemaVersion: Int?
    /// What the migration did in this launch, for builds that migrate.
    public var migration: MigrationOutcome?
    /// What the reinstall sweep did, for builds that have one.
    public var sweep: String?
    /// One entry per item the launch wrote, checked or removed, sorted by name then location.
    public var items: [ItemCheck]
    /// The legacy stores as the launch left them.
    public var legacy: LegacyState?
    /// Failed store operations that are not about a single item.
    public var errors: [ItemCheck]

    public init(
        build: String, mode: LaunchMode, caseID: String, runtime: String, schemaVersion: Int? = nil,
        migration: MigrationOutcome? = nil, sweep: String? = nil, items: [ItemCheck] = [],
        legacy: LegacyState? = nil, errors: [ItemCheck] = []
    ) {
        formatVersion = Self.currentFormat
        self.build = build
        self.mode = mode
        self.caseID = caseID
        self.runtime = runtime
        self.schemaVersion = schemaVersion
        self.migration = migration
        self.sweep = sweep
        self.items = items
        self.legacy = legacy
        self.errors = errors
    }

    /// The file's bytes: sorted keys, sorted items, a final newline.
    public func encoded() throws -> Data {
        var copy = self
        copy.items.sort {
            ($0.name, $0.location, $0.operation, $0.result, $0.status) < (
                $1.name, $1.location, $1.operation, $1.result, $1.status
            )
        }
        copy.errors.sort { ($0.name, $0.location, $0.operation) < ($1.name, $1.location, $1.operation) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var data = try encoder.encode(copy)
        data.append(0x0A)
        return data
    }

    public static func decode(_ data: Data) throws -> LaunchStatus {
        try JSONDecoder().decode(LaunchStatus.self, from: data)
    }
}

/// The launch modes every app build answers.
public enum LaunchMode: String, Codable, Hashable, Sendable, CaseIterable {
    /// `-UITestSeedLegacyKeychain`: write this build's data for the test case.
    case seed
    /// `-UITestSeedMalformed`: write this build's data for the test case, malformed (a corrupt
    /// archive, wrong types, non-UTF-8 bytes).
    case seedMalformed
    /// `-UITestVerifyKeychainV2`: check that this build can read the case's data.
    case verify
    /// `-UITestCleanup`: delete the case's items by exact service and account.
    case cleanup
    /// No automation argument: the app's own launch sequence (sweep, migrate, clean up).
    case launch

    /// The launch argument that selects the mode (nil for a plain launch).
    public var argument: String? {
        switch self {
        case .seed: "-UITestSeedLegacyKeychain"
        case .seedMalformed: "-UITestSeedMalformed"
        case .verify: "-UITestVerifyKeychainV2"
        case .cleanup: "-UITestCleanup"
        case .launch: nil
        }
    }

    /// The mode a launch's arguments select.
    public static func selected(by arguments: [String]) -> LaunchMode {
        allCases.first { $0.argument.map(arguments.contains) ?? false } ?? .launch
    }

    /// The argument that carries the test-case id: `-UITestCaseID <id>`.
    public static let caseIDArgument = "-UITestCaseID"
}

/// What a migration did in one launch.
public struct MigrationOutcome: Codable, Hashable, Sendable {
    /// `migrated`, `upToDate`, `deferred` or `failed`.
    public var state: String
    public var from: Int?
    public var to: Int?
    /// Why it deferred or failed: names and codes only.
    public var reason: String?

    public init(state: String, from: Int? = nil, to: Int? = nil, reason: String? = nil) {
        self.state = state
        self.from = from
        self.to = to
        self.reason = reason
    }
}

/// One item a launch touched or checked.
public struct ItemCheck: Codable, Hashable, Sendable {
    /// The item's logical name (`authToken`, `session`, `deviceKey`, `vault.schemaVersion`).
    public var name: String
    /// `keychain`, `preferences`, `archive` or `file`.
    public var location: String
    /// The operation whose answer decided the result (`SecItemCopyMatching`, `SecItemAdd`, `read`, ...).
    public var operation: String
    /// Its OSStatus (0 for success; for preferences and files, 0 or an errno-style code).
    public var status: Int32
    /// The runtime that answered the status: the same mistake answers different codes on different iOS versions.
    public var runtime: String
    /// `written`, `found`, `missing`, `mismatch`, `locked`, `failed`, `removed` or `kept`.
    public var result: String

    public init(name: String, location: String, operation: String, status: Int32, runtime: String, result: String) {
        self.name = name
        self.location = location
        self.operation = operation
        self.status = status
        self.runtime = runtime
        self.result = result
    }
}

/// Which legacy stores are still there.
public struct LegacyState: Codable, Hashable, Sendable {
    /// Legacy preference keys still present, sorted.
    public var preferenceKeys: [String]
    /// Whether the legacy session archive is still present.
    public var archive: Bool
    /// Non-secret legacy artefacts (caches, old plists) still present, sorted.
    public var artefacts: [String]

    public init(preferenceKeys: [String], archive: Bool, artefacts: [String]) {
        self.preferenceKeys = preferenceKeys.sorted()
        self.archive = archive
        self.artefacts = artefacts.sorted()
    }
}

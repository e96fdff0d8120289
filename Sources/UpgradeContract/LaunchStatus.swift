import Foundation

/// The status file an app build writes at the end of a launch: what it read, wrote and found,
/// with every OSStatus beside the operation that returned it and the runtime. It holds no secret
/// and no digest of one, no clock time and nothing random that is not an input, so the same
/// inputs give the same bytes.
///
/// The app writes it to ``relativePath`` inside its data container; the runner moves it into the
/// run's artifacts after the launch. A launch that leaves none did not finish.
///
/// Every closed set of words in it is a String-backed enum (``ItemResult``, ``StoreLocation``,
/// ``MigrationState``, ``SweepResult``): the bytes are the words, and a word outside the contract
/// does not decode.
public struct LaunchStatus: Codable, Hashable, Sendable {
    public static let relativePath = "tmp/upgrade-runner-status.json"
    /// The contract version this runner and harness speak. A status file of another version is
    /// refused on decode (``ContractError/unsupportedVersion(_:supported:)``).
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
    public var sweep: SweepResult?
    /// One entry per item the launch wrote, checked or removed, sorted by name then location.
    public var items: [ItemCheck]
    /// The legacy stores as the launch left them.
    public var legacy: LegacyState?
    /// Failed store operations that are not about a single item.
    public var errors: [ItemCheck]
    /// The app's own startup read in this launch: for each secret its first screen reads, what it
    /// got (`found`, `missing`, `mismatch`, `locked`, `failed`) with the status of the read, sorted
    /// by name. What the user would see: signed in with the `found` ones. Nil (and absent from the
    /// file) when the build registers no startup read.
    public var startup: [ItemCheck]?
    /// The declared secrets whose shape this launch holds bytes that are not UTF-8
    /// (``SecretShape/bytes``) and that the build asked for as text (``CaseSecrets``' subscript), sorted:
    /// the build got the label's ``SecretShape/alnum`` value instead, and the runner notes the
    /// shape as skipped for that label. Nil (and absent from the file) when there are none.
    public var textReadsOfBytes: [String]?

    public init(
        build: String, mode: LaunchMode, caseID: String, runtime: String, schemaVersion: Int? = nil,
        migration: MigrationOutcome? = nil, sweep: SweepResult? = nil, items: [ItemCheck] = [],
        legacy: LegacyState? = nil, errors: [ItemCheck] = [], startup: [ItemCheck]? = nil
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
        self.startup = startup
    }

    /// The file's bytes: sorted keys, sorted items, a final newline.
    public func encoded() throws -> Data {
        // JSONEncoder's bytes (`.sortedKeys`, `.prettyPrinted`, `.withoutEscapingSlashes`), written
        // without it: its first use in an app launch cost the launch several percent (LaunchStatusJSON.swift).
        var bytes = sortedForFile().json()
        bytes.append(0x0A)
        // Data(bytes:count:), not the generic Data(_:), which asks the runtime about the sequence's type.
        return bytes.withUnsafeBytes { Data(bytes: $0.baseAddress!, count: $0.count) }
    }

    /// The status with its lists in the file's order.
    func sortedForFile() -> LaunchStatus {
        var copy = self
        copy.items.sort {
            ($0.name, $0.location.rawValue, $0.operation, $0.result.rawValue, $0.status) < (
                $1.name, $1.location.rawValue, $1.operation, $1.result.rawValue, $1.status
            )
        }
        copy.errors.sort {
            ($0.name, $0.location.rawValue, $0.operation) < ($1.name, $1.location.rawValue, $1.operation)
        }
        copy.startup?.sort {
            ($0.name, $0.location.rawValue, $0.operation) < ($1.name, $1.location.rawValue, $1.operation)
        }
        return copy
    }

    /// Reads a status file, first checking its contract version.
    /// - Throws: ``ContractError/unsupportedVersion(_:supported:)`` for a file of another version
    ///   (before any other field is read: a newer contract may have changed them), else the
    ///   decoder's error for a word or field outside the contract.
    public static func decode(_ data: Data) throws -> LaunchStatus {
        struct Version: Decodable { var formatVersion: Int }
        let version = try JSONDecoder().decode(Version.self, from: data).formatVersion
        guard version == currentFormat else { throw ContractError.unsupportedVersion(version, supported: currentFormat) }
        return try JSONDecoder().decode(LaunchStatus.self, from: data)
    }

    /// The labels the startup read found: the secrets the user is signed in with after this
    /// launch. Nil when the build registers no startup read.
    public var signedInWith: Set<String>? {
        startup.map { Set($0.filter { $0.result == .found }.map(\.name)) }
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

    /// With `-UITestSeedMalformed`, `-UITestSeedMalformedStore <label>` malforms only the store of the
    /// declared secret `label` and seeds the others valid (the argument may repeat); without it,
    /// every store the build malforms is malformed.
    public static let malformedStoreArgument = "-UITestSeedMalformedStore"
}

/// What a migration did in one launch.
public struct MigrationOutcome: Codable, Hashable, Sendable {
    public var state: MigrationState
    public var from: Int?
    public var to: Int?
    /// Why it deferred or failed: names and codes only.
    public var reason: String?

    public init(state: MigrationState, from: Int? = nil, to: Int? = nil, reason: String? = nil) {
        self.state = state
        self.from = from
        self.to = to
        self.reason = reason
    }
}

/// One item a launch touched or checked.
public struct ItemCheck: Codable, Hashable, Sendable {
    /// The item's logical name: a label the build's declaration gives a secret or a bookkeeping
    /// item, or the name of another item the launch touched.
    public var name: String
    public var location: StoreLocation
    /// The operation whose answer decided the result (`SecItemCopyMatching`, `SecItemAdd`, `read`, ...).
    public var operation: String
    /// Its OSStatus (0 for success; for preferences and files, 0 or an errno-style code).
    public var status: Int32
    /// The runtime that answered the status: the same mistake answers different codes on different iOS versions.
    public var runtime: String
    public var result: ItemResult

    public init(
        name: String, location: StoreLocation, operation: String, status: Int32, runtime: String, result: ItemResult
    ) {
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

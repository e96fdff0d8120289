import Foundation

/// The contents of a build folder's `build.json` (`builds/<id>/build.json`, a known-bad build's in
/// `builds/mutants/<id>/`): the one type that owns the file's fields and their rules. Every reader
/// decodes this type: the build catalog that installs a build (SimDevice), the entitlements reader
/// (Entitlements, through ``Signing``) and the `builds` listing; each words a decoding failure in its
/// own error type, naming the file and the field.
///
/// It lives in UpgradeContract, the lowest module: Entitlements (which depends on nothing else) and
/// SimDevice can both read it, and the app builds, which link UpgradeContract already, gain nothing.
///
/// Decoded as Swift synthesizes it, field by field in the order below, so the first missing or
/// mistyped field is the one named. `team` and `settings` belong to the entitlements reader
/// (``Signing``), which refuses a mistyped one; this type leaves them alone.
public struct BuildManifest: Codable, Equatable, Sendable {
    /// The manifest's file name inside a build folder.
    public static let fileName = "build.json"

    public var id: String
    public var bundleID: String
    /// `CFBundleShortVersionString`, such as `2.1`.
    public var marketingVersion: String
    /// `CFBundleVersion`, such as `210`; it orders upgrades and downgrades.
    public var buildNumber: String
    /// The executable product name, looked up in the products folder.
    public var executable: String
    /// The app's data schema version (what its migrations bring the data to).
    public var schemaVersion: Int
    /// The entitlements file, a plain file name inside the build folder (any kind the entitlements
    /// reader reads).
    public var entitlements: String
    public var notes: String?
    /// Days after a migration before the build removes non-secret legacy artefacts (nil: it never
    /// does). The gate's artefact-window scenario checks they stay before and go after.
    public var artefactWindowDays: Int?
    /// For a known-bad build ("mutant", under `builds/mutants/`): the one anti-pattern it carries,
    /// in words from the seed documents. Nil for a real build.
    public var antiPattern: String?
    /// For a mutant: the gate condition id (such as `reads-old-data`) that must FAIL when the
    /// mutant is the new build. Nil for a real build.
    public var expectedCondition: String?
    /// What the build keeps where: its secrets by label and store, and its bookkeeping items (see
    /// ``BuildDeclaration``). Nil for a build that declares nothing (it has no secret to carry over).
    public var keeps: BuildDeclaration?
    /// Product decisions that change what a condition requires, each with its reason (see
    /// ``BuildPolicies``). Nil: none (the defaults).
    public var policies: BuildPolicies?
    /// True when the build runs another build's executable in its place (scripts/import-app.sh
    /// `--stand-in`: a real app's identity and entitlements over an automation build; a test
    /// fixture): its launches name that other build, which preflight then accepts (it refuses an
    /// executable that names another build id otherwise). Nil: the executable is the build's own.
    public var standIn: Bool?
    /// The oldest iOS the build supports (its `MinimumOSVersion`), such as `15.0`: the os-update
    /// scenario runs the upgrade to this build on it, then updates the device's iOS. Nil: not
    /// declared (os-update starts on ``RuntimeVersion/oldestSupportedDefault``).
    public var minimumOSVersion: String?

    /// ``minimumOSVersion`` read as a runtime (nil when not declared; ``problem(folderName:)``
    /// refuses one that is not an iOS version).
    public var minimumRuntime: RuntimeVersion? { minimumOSVersion.flatMap(RuntimeVersion.init) }
    /// The app extensions the build ships (``BuildExtension``), installed, upgraded and uninstalled
    /// with the app. Nil: none (and nothing about extensions is written anywhere).
    public var extensions: [BuildExtension]?

    public init(
        id: String, bundleID: String, marketingVersion: String, buildNumber: String, executable: String,
        schemaVersion: Int, entitlements: String, notes: String? = nil, artefactWindowDays: Int? = nil,
        antiPattern: String? = nil, expectedCondition: String? = nil, keeps: BuildDeclaration? = nil,
        policies: BuildPolicies? = nil, standIn: Bool? = nil
    ) {
        self.standIn = standIn
        self.id = id
        self.bundleID = bundleID
        self.marketingVersion = marketingVersion
        self.buildNumber = buildNumber
        self.executable = executable
        self.schemaVersion = schemaVersion
        self.entitlements = entitlements
        self.notes = notes
        self.artefactWindowDays = artefactWindowDays
        self.antiPattern = antiPattern
        self.expectedCondition = expectedCondition
        self.keeps = keeps
        self.policies = policies
    }

    /// The first rule the fields break, as a reason naming the field (`field "id" is empty`), or nil.
    /// - Parameter folderName: the build folder's name, which `id` must be.
    public func problem(folderName: String) -> String? {
        let required: [(String, String)] = [
            ("id", id), ("bundleID", bundleID), ("marketingVersion", marketingVersion),
            ("buildNumber", buildNumber), ("executable", executable), ("entitlements", entitlements),
        ]
        for (field, value) in required where value.trimmingCharacters(in: .whitespaces).isEmpty {
            return "field \"\(field)\" is empty"
        }
        if id != folderName {
            return "field \"id\" is \"\(id)\" but the folder is \(folderName)"
        }
        for (field, value) in [("executable", executable), ("entitlements", entitlements)]
        where value.contains("/") || value.hasPrefix(".") {
            return "field \"\(field)\" must be a plain file name, not \"\(value)\""
        }
        if buildNumber.split(separator: ".", omittingEmptySubsequences: false).contains(where: { Int($0) == nil }) {
            return "field \"buildNumber\" is \"\(buildNumber)\", not dotted integers"
        }
        if let minimumOSVersion, RuntimeVersion(minimumOSVersion) == nil {
            return "field \"minimumOSVersion\" is \"\(minimumOSVersion)\", not an iOS version such as \"15.0\""
        }
        return nil
    }

    /// What is wrong with the `keeps` declaration on its own (``BuildDeclaration/problem()``), as a
    /// reason naming the build and the field, or nil. Whether its stores are ones the build can hold
    /// needs the build's entitlements, which its reader checks.
    public func declarationProblem() -> String? {
        guard let (field, reason) = keeps?.problem() else { return nil }
        return "build \(id): field \"\(field)\" \(reason)"
    }

    /// Orders build numbers as dotted integers (`9` < `10` < `10.1`), as the App Store does.
    public static func compareBuildNumbers(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let left = lhs.split(separator: ".").map { Int($0) ?? 0 }
        let right = rhs.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : 0
            let r = index < right.count ? right[index] : 0
            if l != r { return l < r ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }

    /// The fields that say who the build is: all the entitlements reader needs. A folder whose
    /// build.json has only these is a build to `entitlements show` and `entitlements diff`
    /// (docs/entitlements.md), not to the installer, which decodes the whole ``BuildManifest``.
    /// Decoded as Swift synthesizes it: in field order, `team` and `settings` strictly typed.
    public struct Signing: Decodable, Equatable, Sendable {
        public var id: String
        public var bundleID: String
        /// The Team ID that signs the build, for the variables of an Xcode `.entitlements` file
        /// (`$(AppIdentifierPrefix)`, `$(TeamIdentifierPrefix)`); optional.
        ///
        /// No build in `builds/` has it: their entitlements files are literal property lists (as
        /// `scripts/import-app.sh` writes them), whose team is read from the entitlements themselves. It
        /// stays because a build whose entitlements file is the Xcode project's `.entitlements` (with
        /// `$(AppIdentifierPrefix)` in it) names its team nowhere else; docs/entitlements.md documents it
        /// and the entitlements tests' fixture builds use it. `settings` with `DEVELOPMENT_TEAM` says the
        /// same; this field wins over `--team`, and `--setting` wins over both. The installer's
        /// ``BuildManifest`` does not read it (nor `settings`).
        public var team: String?
        /// The entitlements file, relative to the build folder.
        public var entitlements: String
        /// Build settings for the entitlements file's variables (`{"APP_BUNDLE_ID": "..."}`), as the
        /// build's Xcode project defines them; optional, like ``team`` and for the same files.
        public var settings: [String: String]?

        public init(
            id: String, bundleID: String, team: String?, entitlements: String, settings: [String: String]? = nil
        ) {
            self.id = id
            self.bundleID = bundleID
            self.team = team
            self.entitlements = entitlements
            self.settings = settings
        }
    }
}

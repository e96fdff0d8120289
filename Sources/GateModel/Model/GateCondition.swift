/// A gate condition: one named requirement that a scenario checks. The ids are a contract
/// (docs/architecture.md, "Scenarios and gate conditions"): reports, mutant manifests and CI scripts name them.
public enum GateCondition: String, CaseIterable, Codable, Sendable, Comparable, CustomStringConvertible {
    case readsOldData = "reads-old-data"
    case staysSignedIn = "stays-signed-in"
    case idempotent = "idempotent"
    case malformedKeepsOld = "malformed-keeps-old"
    case crashSafe = "crash-safe"
    case lockedLaunchSafe = "locked-launch-safe"
    case reinstallSweeps = "reinstall-sweeps"
    case noFalsePass = "no-false-pass"
    case entitlementsCompatible = "entitlements-compatible"
    case isolation = "isolation"
    case cleanupExact = "cleanup-exact"
    case artefactWindow = "artefact-window"
    case keepsAvailability = "keeps-availability"
    case keepsProtection = "keeps-protection"
    case survivesRestore = "survives-restore"
    case honestStatus = "honest-status"
    case noSecretInArtifacts = "no-secret-in-artifacts"

    /// The condition's id, as reports print it.
    public var description: String { rawValue }

    /// One line for people: what the condition requires.
    public var summary: String {
        switch self {
        case .readsOldData: "the new build reads every item the old build left"
        case .staysSignedIn: "every launch of the new build signs in with each secret the old build's startup read found"
        case .idempotent: "a second launch changes nothing"
        case .malformedKeepsOld: "malformed legacy data stays in place and yields an error code"
        case .crashSafe: "a crash or failed write at any point loses no secret"
        case .lockedLaunchSafe: "a launch while locked or before first unlock loses nothing"
        case .reinstallSweeps: "after uninstall and install the old session does not come back"
        case .noFalsePass: "leftovers of an earlier case do not make a path pass"
        case .entitlementsCompatible: "the new build can reach every access group holding old items"
        case .isolation: "another team's items are neither read nor changed"
        case .cleanupExact: "cleanup removes exactly the legacy data, nothing more"
        case .artefactWindow: "legacy artefacts are kept for 30 days, then removed"
        case .keepsAvailability: "a secret the old build could read in a lock state stays readable in it"
        case .keepsProtection:
            "a secret's protection after the upgrade is at least the old build's: no ThisDeviceOnly dropped, no sync added, no move out of the keychain into a file, no file protection lowered (unless declared)"
        case .survivesRestore:
            "after a backup restored onto a new device, every secret kept in a class that travels reads back, and what never travels breaks nothing"
        case .honestStatus:
            "every status file is the contract's, its words agree with their OSStatus and the device, and it holds nothing not derived from the inputs"
        case .noSecretInArtifacts: "no artifact holds a seeded secret in any encoding"
        }
    }

    /// What a team usually does about a failure of the condition, in one line: summary.md shows it
    /// under each failing condition. Advice, not a verdict: the findings say what happened.
    public var remedy: String {
        switch self {
        case .readsOldData:
            "migrate every declared store on first launch (read the old key, class, group or file), and keep the old copy until the new one reads back"
        case .staysSignedIn:
            "have the first screen read where the new build keeps the secret, after the migration or from the old store as a fallback"
        case .idempotent:
            "make each migration step check what it already did (a schema version or marker), so a second launch changes nothing"
        case .malformedKeepsOld:
            "on data the build cannot decode, report the error and leave the old store as it is; never delete or overwrite what was not read"
        case .crashSafe: "add before delete: write the new copy, read it back, then remove the old one"
        case .lockedLaunchSafe:
            "defer the migration while protected data is unavailable (errSecInteractionNotAllowed is not 'missing'), and retry on unlock"
        case .reinstallSweeps:
            "sweep on first launch after install (a marker outside the keychain, every class, kSecAttrSynchronizableAny), or declare keeps-credentials"
        case .noFalsePass: "read only the case's own items by their exact key, never the first item a broad query returns"
        case .entitlementsCompatible:
            "keep every keychain access group and app group that holds old items in the new build's entitlements"
        case .isolation: "query with your own service and access group only; never delete or update by class alone"
        case .cleanupExact: "remove each legacy item by its exact key, and nothing else"
        case .artefactWindow: "keep the legacy artefacts for the declared window after the migration, then remove them"
        case .keepsAvailability:
            "re-save a secret with at least the old protection class (kSecAttrAccessible), or declare the change as a policy"
        case .keepsProtection:
            "keep ThisDeviceOnly, synchronizable and file protection as the old build set them, or declare the change as a policy with a reason"
        case .survivesRestore:
            "keep secrets that must travel in a class that travels in backups; treat a ThisDeviceOnly item that did not come back as signed out"
        case .honestStatus:
            "report the status the store answered, with the word the contract gives it; derive every value from the inputs, never from the clock"
        case .noSecretInArtifacts: "never log, print or write a secret; log labels and statuses"
        }
    }

    /// The conditions every (path, scenario) cell checks whatever its scenario: docs/architecture.md's rows
    /// "every launch" (honest-status) and "every path" (no-secret-in-artifacts). ``PlanUnit/cells`` adds them.
    public static let everywhere: [GateCondition] = [.honestStatus, .noSecretInArtifacts]

    private var order: Int { Self.allCases.firstIndex(of: self)! }

    /// Declaration order, which is the order reports list conditions in.
    public static func < (lhs: GateCondition, rhs: GateCondition) -> Bool { lhs.order < rhs.order }
}

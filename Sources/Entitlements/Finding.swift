/// The stable ids of the keychain-impact findings; scripts and the gate match on these.
public enum FindingID: String, Sendable, Encodable, CaseIterable {
    /// The app-id (team) prefix changed: an app transfer.
    case teamChanged = "team-changed"
    /// An access group the old build had is not granted to the new build.
    case unreachableGroup = "unreachable-group"
    /// A provisioning profile's wildcard group (`TEAMID.*`) of the old side that the new side does not grant: a
    /// pattern that allowed groups, not a group that holds items.
    case profileWildcard = "profile-wildcard"
    /// The first access group, where items added without a group land, changed.
    case firstGroupChanged = "first-group-changed"
    /// An application group was added.
    case appGroupAdded = "app-group-added"
    /// An application group was removed.
    case appGroupRemoved = "app-group-removed"
    /// `get-task-allow` true or `aps-environment` development.
    case developmentSigning = "development-signing"
    /// The new build has no access group at all.
    case noAccessGroups = "no-access-groups"
    /// An input was read but looked wrong (architectures, signature or profile disagree).
    case inputWarning = "input-warning"
}

/// One consequence of the entitlements change, with a severity: any `error` means the new build cannot reach
/// everything the old build could.
public struct Finding: Sendable, Equatable, Encodable {
    /// How much the finding matters; only errors fail the verdict.
    public enum Severity: String, Sendable, Encodable {
        /// The new build cannot reach something the old build could: the verdict fails.
        case error
        /// Worth a look, but nothing becomes unreachable.
        case warning
        /// For the record.
        case info
    }

    /// The stable id.
    public let id: FindingID
    /// Error, warning or info.
    public let severity: Severity
    /// What the finding is about (an access group, a build), when it is about one thing.
    public let subject: String?
    /// One or more sentences for a person.
    public let message: String
    /// Items on the device the finding concerns, when item counts were given.
    public let items: Int?

    /// Makes a finding.
    public init(_ id: FindingID, _ severity: Severity, subject: String? = nil, items: Int? = nil, _ message: String) {
        self.id = id
        self.severity = severity
        self.subject = subject
        self.items = items
        self.message = message
    }
}

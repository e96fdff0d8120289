/// What a finding is about, in words that do not depend on the path it was found on: the secret
/// (by the app's label) or item, the store that holds it, and the kind of loss or violation.
///
/// Two findings of one condition with the same key are the same finding, whichever build produced
/// them: that is how a finding of the release under test is matched with its baseline's
/// (``GateReport/PreExisting``). Messages are not compared: they name launches, builds and paths.
/// A finding without a key (a crashed launch, an exploration attempt) never matches, so it decides.
public struct FindingKey: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    /// The secret's label, or the item's name in its store (a keychain item's key, a preference key,
    /// a file's path in its container); never a value.
    public package(set) var subject: String
    /// The store the subject is in.
    public package(set) var store: FindingStore
    /// What went wrong with it.
    public package(set) var kind: FindingKind

    package init(_ subject: String, in store: FindingStore, _ kind: FindingKind) {
        self.subject = subject
        self.store = store
        self.kind = kind
    }

    /// `authToken (secret): lost`.
    public var description: String { "\(subject) (\(store.rawValue)): \(kind.rawValue)" }

    public static func < (lhs: FindingKey, rhs: FindingKey) -> Bool {
        (lhs.subject, lhs.store.rawValue, lhs.kind.rawValue) < (rhs.subject, rhs.store.rawValue, rhs.kind.rawValue)
    }
}

/// The store a finding's subject is in. `secret`: a declared secret by its label, wherever the
/// build keeps it (the checker judged the secret, not one place of it).
public enum FindingStore: String, Codable, Sendable, CaseIterable {
    case secret
    case keychain
    case preference
    case file
    case appGroupFile = "app-group-file"
    case appGroupPreference = "app-group-preference"
    /// Another team's items on the device.
    case neighbour
}

/// The kind of loss or violation a finding reports: a closed set, so that two checkers' words for
/// the same loss cannot drift apart.
public enum FindingKind: String, Codable, Sendable, CaseIterable {
    /// On the device in no place the new build can reach.
    case lost
    /// The verify launch did not report it.
    case unreported
    /// Read back with another result than the scenario requires (found, missing, mismatch ...).
    case wrongResult = "wrong-result"
    /// The app's startup read no longer finds it: the user is signed out.
    case signedOut = "signed-out"
    /// Deleted where it had to stay.
    case deleted
    /// Overwritten where it had to stay.
    case overwritten
    /// Malformed input was not reported.
    case notReported = "not-reported"
    /// Survived where it had to go (a reinstall's sweep).
    case survived
    /// Read after the reinstall that had to remove it.
    case readAfterReinstall = "read-after-reinstall"
    /// Rewritten where it had to stay unchanged.
    case rewritten
    /// Another item was changed or removed.
    case changed
    /// Removed too early.
    case removedEarly = "removed-early"
    /// Kept too long.
    case keptTooLong = "kept-too-long"
    /// Not removed by the cleanup.
    case notRemoved = "not-removed"
    /// Added where nothing was to be added.
    case added
    /// Readable in fewer lock states than the old release made it.
    case lessAvailable = "less-available"
}

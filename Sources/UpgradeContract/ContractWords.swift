/// The closed sets of words of the status file. Each raw value is the word as it stands in the
/// file; a new word is a new case here, and so a change of the contract that review sees.

/// What a launch found or did to one item.
public enum ItemResult: String, Codable, Hashable, Sendable, CaseIterable {
    /// Stored by this launch, and the store answered success.
    case written
    /// Read, and equal to the value the case expects.
    case found
    /// Not there (`errSecItemNotFound`, no such key or file).
    case missing
    /// There, but not the value the case expects.
    case mismatch
    /// Not readable now: the device is locked (`errSecInteractionNotAllowed`, `EPERM`); never "missing".
    case locked
    /// The store refused the operation.
    case failed
    /// Removed by this launch.
    case removed
    /// Left in place on purpose (a legacy copy kept because its move did not complete).
    case kept

    /// Whether `status`, the OSStatus (keychain) or errno-style code (other stores) that an item at
    /// `location` was reported with, can stand beside this word. The contract's table, which the
    /// gate's `honest-status` condition holds every status file to:
    ///
    /// | word | keychain | preferences, files, archives, property lists |
    /// | --- | --- | --- |
    /// | `found`, `mismatch`, `written`, `removed` | 0 | 0 |
    /// | `missing` | -25300 `errSecItemNotFound` | 0 (read, no value) or 2 `ENOENT` |
    /// | `locked` | -25308 `errSecInteractionNotAllowed` | 1 `EPERM`, 13 `EACCES` |
    /// | `failed` | not 0 | not 0 |
    /// | `kept` | any: kept on purpose (0) or because its removal failed (that code) | any |
    ///
    /// The launch `arguments` are no store: only `failed` with a code stands there.
    public func admits(status: Int32, at location: StoreLocation) -> Bool {
        let itemNotFound: Int32 = -25300
        let interactionNotAllowed: Int32 = -25308
        let (noEntry, notPermitted, accessDenied): (Int32, Int32, Int32) = (2, 1, 13)
        if location == .arguments { return self == .failed && status != 0 }
        let keychain = location == .keychain
        switch self {
        case .found, .mismatch, .written, .removed: return status == 0
        case .missing: return keychain ? status == itemNotFound : (status == 0 || status == noEntry)
        case .locked:
            return keychain ? status == interactionNotAllowed : (status == notPermitted || status == accessDenied)
        case .failed: return status != 0
        case .kept: return true
        }
    }
}

/// Where an item lives.
public enum StoreLocation: String, Codable, Hashable, Sendable, CaseIterable {
    /// A keychain item.
    case keychain
    /// A preference key (`UserDefaults`).
    case preferences
    /// An NSKeyedArchiver archive file.
    case archive
    /// A property-list file.
    case plist
    /// Another file (in the data container or an app group container).
    case file
    /// The launch arguments (an automation launch that lacks its `-UITestCaseID`).
    case arguments
    /// A JSON file (an app's Codable file), the secret a string at a key path.
    case json
}

/// What a migration did in one launch.
public enum MigrationState: String, Codable, Hashable, Sendable, CaseIterable {
    /// It ran to the build's target schema in this launch.
    case migrated
    /// The stored schema already was the target: nothing to do.
    case upToDate
    /// It waited for a better moment (protected data unavailable) and changed nothing it could lose.
    case deferred
    /// A step failed; its sources are kept.
    case failed
    /// The stored schema is newer than this build knows (a downgrade): it changed nothing.
    case tooNew
}

/// What a reinstall sweep did in one launch.
public enum SweepResult: String, Codable, Hashable, Sendable, CaseIterable {
    /// No install marker: a fresh install, and the app's leftover keychain items were removed.
    case swept
    /// The install marker was there: not a reinstall, nothing removed.
    case markerPresent
    /// An upgrade from a build without the marker: marked, nothing removed.
    case markedUpgrade
    /// Protected data was unavailable: the marker could not be read, nothing removed.
    case deferred
    /// A delete failed.
    case failed
}

/// A file of the contract that this version does not speak.
public enum ContractError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `formatVersion` is not the version this runner and harness speak.
    case unsupportedVersion(Int, supported: Int)

    public var description: String {
        switch self {
        case .unsupportedVersion(let found, let supported):
            "field \"formatVersion\" is \(found), but this runner speaks contract version \(supported)"
        }
    }
}

import Foundation
import SimRuntime

/// What the app's own startup read got for one secret: the read its first screen does to decide
/// whether the user is signed in, and with what. The value is compared with the case's and never
/// leaves the process; the status file carries the comparison's word and the status.
public struct SecretRead: Sendable {
    /// The secret's label, as the build's declaration names it.
    public var label: String
    /// Where the app read it from.
    public var location: StoreLocation
    /// The call whose answer decided the read (`SecItemCopyMatching`, `unarchivedObject`, ...).
    public var operation: String
    /// Its OSStatus, or an errno-style code for preferences and files; 0 when the read returned.
    public var status: Int32
    /// The bytes the app got (nil: none).
    public var value: Data?

    public init(_ label: String, from location: StoreLocation, operation: String = "read", status: Int32, value: Data?) {
        self.label = label
        self.location = location
        self.operation = operation
        self.status = status
        self.value = value
    }

    /// A read that returned `text` (nil: the store had no value).
    public init(_ label: String, from location: StoreLocation, operation: String = "read", text: String?) {
        self.init(label, from: location, operation: operation, status: 0, value: text.map { Data($0.utf8) })
    }

    /// The app's own report of a read (``SecretReport``) that returned `text` (nil: none).
    public init(_ report: some SecretReport, text: String?) {
        self.init(
            report.label, from: report.location, operation: report.operation, status: report.status,
            value: text.map { Data($0.utf8) })
    }

    /// The contract's word for this read of a secret whose case value is `expected`: `found` when
    /// the app got those bytes, `mismatch` when it got others, `missing`, `locked` or `failed` by
    /// the status (``ItemResult/ofRead(status:value:expected:at:)``).
    public func result(expected: Data) -> ItemResult {
        ItemResult.ofRead(status: status, value: value, expected: expected, at: location)
    }
}

extension ItemResult {
    /// The word for a read at `location` that answered `status` and returned `value`, for a
    /// secret whose case value is `expected`.
    ///
    /// An item or file that was read (status 0) but holds no bytes is there with other content:
    /// a mismatch, never "missing" (the contract pairs a keychain "missing" with -25300).
    public static func ofRead(status: Int32, value: Data?, expected: Data, at location: StoreLocation) -> ItemResult {
        switch status {
        case 0 where value == nil: [.keychain, .file].contains(location) ? .mismatch : .missing
        case 0: value == expected ? .found : .mismatch
        case -25300, ENOENT: .missing  // errSecItemNotFound
        case -25308, EPERM, EACCES: .locked  // errSecInteractionNotAllowed
        default: .failed
        }
    }
}

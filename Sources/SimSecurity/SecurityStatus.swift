import Foundation

/// An OSStatus with its name: an open set, so unknown codes survive, and `~=` lets a `switch`
/// or `catch` match named codes.
public struct SecurityStatus: RawRepresentable, Hashable, Sendable, Error, CustomStringConvertible {
    public var rawValue: OSStatus
    public init(rawValue: OSStatus) { self.rawValue = rawValue }
    public init(_ status: OSStatus) { self.rawValue = status }

    /// Apple's constant name, such as `errSecDuplicateItem`, or nil for a code SecBase.h does not declare.
    public var name: String? {
        keychainErrorMessages[rawValue]?.name ?? otherErrorNames[rawValue]
    }

    /// `-25299 (errSecDuplicateItem)`.
    public var description: String {
        name.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
    }

    public static func ~= (pattern: SecurityStatus, value: OSStatus) -> Bool { pattern.rawValue == value }
}

/// A human-readable message for an OSStatus, as the Security framework gives it.
/// Codes outside the keychain's own set get their constant name, or `OSStatus N` when unknown.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    if let known = keychainErrorMessages[status] { return known.message as NSString }
    if let name = otherErrorNames[status] { return "\(name) (OSStatus \(status))" as NSString }
    return "OSStatus \(status)" as NSString
}

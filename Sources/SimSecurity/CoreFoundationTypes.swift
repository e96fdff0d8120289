import Foundation

// The Core Foundation types that keychain code names. On Linux they are Foundation's NS types, so
// that `query as CFDictionary`, `[CFString: Any]`, `kSecClass as String` and `result as? Data`
// compile and behave as they do against Apple's Security framework.

/// A Security framework result code; `errSecSuccess` (0) is success.
public typealias OSStatus = Int32
/// Any Core Foundation object.
public typealias CFTypeRef = AnyObject
public typealias CFDictionary = NSDictionary
public typealias CFMutableDictionary = NSMutableDictionary
public typealias CFString = NSString
public typealias CFData = NSData
public typealias CFArray = NSArray
public typealias CFBoolean = NSNumber
public typealias CFNumber = NSNumber
public typealias CFDate = NSDate
public typealias CFError = NSError
public typealias CFIndex = Int
/// Core Foundation's bit-flag type (`unsigned long`).
public typealias CFOptionFlags = UInt
/// The domain of a ``CFError``.
public typealias CFErrorDomain = CFString

// An NSString in an `AnyHashable` is the String it holds, as Apple's Foundation makes it (its NSString
// has a custom AnyHashable representation; swift-corelibs-foundation gives one to NSData and NSUUID,
// not to NSString). Keychain code looks up a result's attributes, cast to `[AnyHashable: Any]`, by the
// constants themselves, `attributes[kSecAttrAccount]`: without this the key, an NSString, never equals
// the result's String keys and the lookup finds nothing on Linux alone (SwiftKeychainWrapper's
// `allKeys()` answered an empty set; docs/simsecurity.md, "Real libraries' own test suites"). It holds
// in every process that links SimSecurity, as Apple's holds in every app. Should a later corelibs give
// NSString one of its own, the compiler names this conformance as redundant and it goes.
extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    public func _toCustomAnyHashable() -> AnyHashable? { AnyHashable(String._unconditionallyBridgeFromObjectiveC(self)) }
}

/// The Info.plist key of the bundle identifier (Core Foundation's `CFBundle.h`), which keychain
/// wrappers read to name their default service (`Bundle.main.infoDictionary?[kCFBundleIdentifierKey
/// as String]`); corelibs Foundation does not export Core Foundation's names.
public nonisolated(unsafe) let kCFBundleIdentifierKey: CFString = "CFBundleIdentifier"

/// The domain of errors that carry an OSStatus, such as the Security framework's.
public nonisolated(unsafe) let kCFErrorDomainOSStatus: CFErrorDomain! = "NSOSStatusErrorDomain"

/// The domain of an error.
public func CFErrorGetDomain(_ error: CFError!) -> CFErrorDomain! { error.domain as NSString }

/// The code of an error: an OSStatus for errors of ``kCFErrorDomainOSStatus``.
public func CFErrorGetCode(_ error: CFError!) -> CFIndex { error.code }

/// A copy of an error's user-info dictionary (empty when it has none).
public func CFErrorCopyUserInfo(_ error: CFError!) -> CFDictionary! { NSDictionary(dictionary: error.userInfo) }

/// The allocator argument of Core Foundation functions; SimSecurity ignores it.
public final class CFAllocator: Sendable {
    fileprivate init() {}
}

/// The default allocator.
public let kCFAllocatorDefault: CFAllocator! = CFAllocator()

/// Core Foundation's true, an implicitly unwrapped optional as in Apple's SDK.
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// Core Foundation's false, an implicitly unwrapped optional as in Apple's SDK.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// Access-control flags for ``SecAccessControlCreateWithFlags(_:_:_:_:)``, with Apple's members and values.
public struct SecAccessControlCreateFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let userPresence = SecAccessControlCreateFlags(rawValue: 1 << 0)
    public static let biometryAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    @available(*, deprecated, renamed: "biometryAny")
    public static let touchIDAny = SecAccessControlCreateFlags(rawValue: 1 << 1)
    public static let biometryCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    @available(*, deprecated, renamed: "biometryCurrentSet")
    public static let touchIDCurrentSet = SecAccessControlCreateFlags(rawValue: 1 << 3)
    public static let devicePasscode = SecAccessControlCreateFlags(rawValue: 1 << 4)
    public static let watch = SecAccessControlCreateFlags(rawValue: 1 << 5)
    public static let or = SecAccessControlCreateFlags(rawValue: 1 << 14)
    public static let and = SecAccessControlCreateFlags(rawValue: 1 << 15)
    public static let privateKeyUsage = SecAccessControlCreateFlags(rawValue: 1 << 30)
    public static let applicationPassword = SecAccessControlCreateFlags(rawValue: 1 << 31)
}

/// An access-control object: a protection class (a `kSecAttrAccessible…` value) and flags.
///
/// SimSecurity stores the protection class (it decides availability under lock, as on iOS) and
/// the flags. No prompt is shown: a read of the secret of an item whose flags need the user succeeds
/// in a foreground call on an unlocked device (the user authenticates), answers
/// errSecInteractionNotAllowed where no prompt can be shown (a background launch, a locked device),
/// and errSecAuthFailed for a `.biometryCurrentSet` item after a biometry change (docs/simsecurity.md,
/// rows 50-53).
///
/// Two objects with the same class and flags are equal, so that one can go into a
/// `[String: AnyHashable]` query as Apple's CF type can.
public final class SecAccessControl: Hashable, Sendable {
    public let protection: String
    public let flags: SecAccessControlCreateFlags

    init(protection: String, flags: SecAccessControlCreateFlags) {
        self.protection = protection
        self.flags = flags
    }

    public static func == (lhs: SecAccessControl, rhs: SecAccessControl) -> Bool {
        lhs.protection == rhs.protection && lhs.flags == rhs.flags
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(protection)
        hasher.combine(flags)
    }
}

/// Creates an access-control object; answers nil (and an error) for an unknown protection class.
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    guard let protection = protection as? String, Accessibility(rawValue: protection) != nil else {
        error?.pointee = Unmanaged.passRetained(NSError(domain: kCFErrorDomainOSStatus as String, code: Int(errSecParam)))
        return nil
    }
    return SecAccessControl(protection: protection, flags: flags)
}

import Foundation

/// The session object v1 archived with `NSKeyedArchiver` (secure coding).
///
/// It lives in v1's library, which every later release imports, so that every build archives and
/// unarchives it under the same class name (`LedgerRelease1.LegacySession`), as one iOS app module
/// would across releases.
public final class LegacySession: NSObject, NSSecureCoding, @unchecked Sendable {
    public static var supportsSecureCoding: Bool { true }

    public let userID: String
    public let token: String

    public init(userID: String, token: String) {
        self.userID = userID
        self.token = token
    }

    public func encode(with coder: NSCoder) {
        coder.encode(userID as NSString, forKey: "userID")
        coder.encode(token as NSString, forKey: "token")
    }

    public init?(coder: NSCoder) {
        guard let userID = coder.decodeObject(of: NSString.self, forKey: "userID"),
            let token = coder.decodeObject(of: NSString.self, forKey: "token")
        else { return nil }
        self.userID = userID as String
        self.token = token as String
    }
}

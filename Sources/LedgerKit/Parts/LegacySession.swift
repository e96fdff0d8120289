import Foundation

/// The session object v1 archived with `NSKeyedArchiver` (secure coding).
///
/// It lives in this shared module so that every build archives and unarchives it under the same
/// class name (`LedgerKit.LegacySession`), as one iOS app module would across releases.
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

/// The session as v2 and later keep it: JSON in the keychain item `session`.
public struct SessionRecord: Codable, Equatable, Sendable {
    public var userID: String
    public var accessToken: String

    public init(userID: String, accessToken: String) {
        self.userID = userID
        self.accessToken = accessToken
    }

    /// Its JSON bytes, with sorted keys so the same session always gives the same bytes.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }
}

import Foundation

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

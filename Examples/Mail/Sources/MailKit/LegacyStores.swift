import Foundation

/// Where Mail 1.0 kept the account: the IMAP password in an NSKeyedArchiver archive in Application
/// Support, the user name in UserDefaults, and the SMTP password in the settings plist in Documents.
public enum LegacyStores {
    public static let usernameKey = "mail.username"

    public static var supportFolder: URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
    }
    public static var archiveURL: URL { supportFolder.appendingPathComponent("account.archive") }
    public static var settingsURL: URL {
        FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0].appendingPathComponent("settings.plist")
    }

    /// Mail 1.0's "Save" of the account screen.
    public static func saveAccount(username: String, password: String, smtpPassword: String) throws {
        try FileManager.default.createDirectory(at: supportFolder, withIntermediateDirectories: true)
        let account: NSDictionary = ["username": username, "password": password]
        try NSKeyedArchiver.archivedData(withRootObject: account, requiringSecureCoding: true)
            .write(to: archiveURL, options: .atomic)
        UserDefaults.standard.set(username, forKey: usernameKey)
        try FileManager.default.createDirectory(
            at: settingsURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        try writeSettings(["signature": "Sent from Mail", "smtpPassword": smtpPassword], atomically: true)
    }

    /// The archived account, or nil with the reason it cannot be read.
    public static func loadAccount() -> (password: String?, problem: String?) {
        guard let data = FileManager.default.contents(atPath: archiveURL.path) else { return (nil, nil) }
        let classes = [NSDictionary.self, NSString.self, NSNumber.self, NSData.self, NSArray.self, NSDate.self]
        guard let object = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: classes, from: data),
            let account = object as? [String: Any]
        else { return (nil, "NSKeyedUnarchiver") }
        guard let password = account["password"] as? String else { return (nil, "password") }
        return (password, nil)
    }

    public static func loadSettings() -> (settings: [String: Any]?, problem: String?) {
        guard let data = FileManager.default.contents(atPath: settingsURL.path) else { return (nil, nil) }
        guard let settings = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] else {
            return (nil, "PropertyListSerialization")
        }
        return (settings, nil)
    }

    public static func writeSettings(_ settings: [String: Any], atomically: Bool) throws {
        let data = try PropertyListSerialization.data(fromPropertyList: settings, format: .xml, options: 0)
        try data.write(to: settingsURL, options: atomically ? .atomic : [])
    }
}

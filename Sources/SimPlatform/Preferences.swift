import FileUtility
import Foundation
import SimRuntime
import SimSupervision

/// An app's preferences with `UserDefaults`' rules, stored as a real property list.
///
/// - The persistent domain is the binary property list `Library/Preferences/<domain>.plist` in the
///   data container (or the app group's container for a suite), read on every access, so two
///   instances (and the runner) always agree, as cfprefsd makes them on iOS.
/// - Before first unlock the file is unreadable: reads see an empty domain and writes fail
///   (with `EPERM` through the seam), as with a prewarmed launch after a reboot.
/// - `-Key value` launch arguments form the volatile argument domain, which shadows stored values
///   of the same key for reads; writes still go to the persistent domain.
/// - Every write or removal passes through the seam as `preferences.write`. A planned power loss
///   takes every set of the launch (``PowerLoss``): cfprefsd had not written them yet.
public final class Preferences: @unchecked Sendable {
    public let domain: String
    public let plistPath: String
    /// The argument domain (`NSArgumentDomain`) of this launch.
    public let argumentDomain: [String: Any]
    private let lockState: LockStateSource
    private let seam: Seam

    public init(
        domain: String, plistPath: String, argumentDomain: [String: Any] = [:],
        lockState: LockStateSource, seam: Seam
    ) {
        self.domain = domain
        self.plistPath = plistPath
        self.argumentDomain = argumentDomain
        self.lockState = lockState
        self.seam = seam
    }

    // MARK: Reading

    /// The value for `key`: the argument domain's if it has one, else the stored one.
    public func object(forKey key: String) -> Any? {
        argumentDomain[key] ?? persistentDomain()[key]
    }

    public func string(forKey key: String) -> String? {
        switch object(forKey: key) {
        case let value as String: value
        case let value as NSNumber: value.stringValue
        default: nil
        }
    }

    public func data(forKey key: String) -> Data? { object(forKey: key) as? Data }
    public func array(forKey key: String) -> [Any]? { object(forKey: key) as? [Any] }
    public func dictionary(forKey key: String) -> [String: Any]? { object(forKey: key) as? [String: Any] }
    public func stringArray(forKey key: String) -> [String]? { object(forKey: key) as? [String] }

    /// As `UserDefaults.integer(forKey:)`: numbers, and strings that read as numbers; else 0.
    public func integer(forKey key: String) -> Int {
        switch object(forKey: key) {
        case let value as NSNumber: value.intValue
        case let value as String: Int(value) ?? Double(value).flatMap { Int(exactly: $0.rounded(.towardZero)) } ?? 0
        default: 0
        }
    }

    /// As `UserDefaults.bool(forKey:)`: numbers, and the strings `YES`, `true` and numbers; else false.
    public func bool(forKey key: String) -> Bool {
        switch object(forKey: key) {
        case let value as NSNumber: value.boolValue
        case let value as String: ["yes", "true"].contains(value.lowercased()) || (Int(value) ?? 0) != 0
        default: false
        }
    }

    /// The stored values only (empty before first unlock or when the file is missing or unreadable).
    public func persistentDomain() -> [String: Any] {
        guard lockState.current.hasBeenUnlockedSinceBoot else { return [:] }
        return readFile() ?? [:]
    }

    /// Every value this instance would answer, the argument domain over the stored values.
    public func dictionaryRepresentation() -> [String: Any] {
        persistentDomain().merging(argumentDomain) { $1 }
    }

    // MARK: Writing

    /// Stores `value` for `key` (nil removes it).
    /// - Returns: whether it was stored; `UserDefaults` does not say, but a test harness may want to.
    @discardableResult
    public func set(_ value: Any?, forKey key: String) -> Bool {
        write(key) { domain in
            if let value { domain[key] = value } else { domain.removeValue(forKey: key) }
        }
    }

    /// Removes the stored value for `key`.
    @discardableResult
    public func removeObject(forKey key: String) -> Bool { set(nil, forKey: key) }

    private func write(_ key: String, _ change: (inout [String: Any]) -> Void) -> Bool {
        let status = seam.perform(.preferencesWrite, SeamSubject(store: "preferences", name: key)) {
            guard lockState.current.hasBeenUnlockedSinceBoot else { return EPERM }
            var domain = readFile() ?? [:]
            change(&domain)
            guard PropertyListSerialization.propertyList(domain, isValidFor: .binary),
                let data = try? PropertyListSerialization.data(fromPropertyList: domain, format: .binary, options: 0)
            else { return EINVAL }
            let folder = (plistPath as NSString).deletingLastPathComponent
            if !FileManager.default.fileExists(atPath: folder) {
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            seam.powerLoss?.willWritePreferences(at: plistPath)
            // A store operation's own write (the seam numbers it): past the file supervisor's filter
            // without a round trip, as FileUtility's atomic write where nothing supervises.
            return FileSupervision.writeOwnFile(data, to: plistPath)
        }
        return status == 0
    }

    private func readFile() -> [String: Any]? {
        guard let data = FileManager.default.contents(atPath: plistPath) else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }

    // MARK: The argument domain

    /// Parses launch arguments the way Foundation builds `NSArgumentDomain`: an argument `-Key`
    /// followed by one that does not start with `-` is a pair; a value that starts like a property
    /// list (`(`, `{`, `<`, `"`) is parsed as one, anything else stays a string. A `-Flag` followed by
    /// another `-Flag` (or nothing) is not a pair and sets nothing.
    public static func argumentDomain(_ arguments: [String]) -> [String: Any] {
        var domain: [String: Any] = [:]
        var index = 0
        while index + 1 < arguments.count {
            let current = arguments[index]
            let next = arguments[index + 1]
            guard current.count > 1, current.hasPrefix("-"), !next.hasPrefix("-") else {
                index += 1
                continue
            }
            let key = String(current.dropFirst())
            if let first = next.first, "({<\"".contains(first),
                let parsed = try? PropertyListSerialization.propertyList(from: Data(next.utf8), format: nil)
            {
                domain[key] = parsed
            } else {
                domain[key] = next
            }
            index += 2
        }
        return domain
    }
}

import Foundation

/// The iOS version a simulated device runs, written the way simctl names runtimes: `iOS 17.5`.
///
/// Keychain answers that changed between iOS releases (rows 9 and 10 of the behaviour table)
/// follow this version, and every status file records it beside each OSStatus.
public struct RuntimeVersion: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    public var major: Int
    public var minor: Int

    public init(major: Int, minor: Int = 0) {
        self.major = major
        self.minor = minor
    }

    /// Parses `iOS 17.5`, `17.5`, `iOS 12` or a simctl runtime id such as
    /// `com.apple.CoreSimulator.SimRuntime.iOS-17-5`.
    public init?(_ text: String) {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        if let range = body.range(of: "SimRuntime.iOS-") {
            body = body[range.upperBound...]
        } else if body.hasPrefix("iOS") {
            body = body.dropFirst(3).drop(while: { $0 == " " })
        }
        let parts = body.split(whereSeparator: { $0 == "." || $0 == "-" })
        guard (1...3).contains(parts.count), let major = Int(parts[0]), (2...99).contains(major) else { return nil }
        let minor = parts.count > 1 ? Int(parts[1]) : 0
        guard let minor, minor >= 0 else { return nil }
        self.init(major: major, minor: minor)
    }

    /// The runtime a device gets when none is named.
    public static let current = RuntimeVersion(major: 17, minor: 5)

    /// The oldest iOS a build supports when its build.json does not say (`minimumOSVersion`): where
    /// the os-update scenario starts. iOS 15.0, the oldest that the sample's builds support.
    public static let oldestSupportedDefault = RuntimeVersion(major: 15, minor: 0)

    public var description: String { "iOS \(major).\(minor)" }

    public static func < (lhs: RuntimeVersion, rhs: RuntimeVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let version = RuntimeVersion(text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "not an iOS runtime version: \(text)"))
        }
        self = version
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

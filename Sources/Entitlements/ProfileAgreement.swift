/// Checks that an executable's entitlements are allowed by its provisioning profile, as installd would.
enum ProfileAgreement {
    /// One phrase per entitlement the profile does not allow, sorted by key; empty when they agree.
    /// - Parameter macOS: whether the app is a macOS bundle, whose `com.apple.security.*` keys (App Sandbox and its
    ///   capabilities, team-prefixed app groups) are granted by signing alone; a profile that lists one still limits it.
    static func disagreements(app: Entitlements, profile: ProvisioningProfile, macOS: Bool = false) -> [String] {
        var problems: [String] = []
        for key in app.values.keys.sorted() {
            guard let value = app.values[key] else { continue }
            guard let allowed = profile.entitlements.values[key] else {
                if !(macOS && key.hasPrefix("com.apple.security.")) { problems.append("\(key) is not in the profile") }
                continue
            }
            if let problem = check(key: key, value: value, allowed: allowed) { problems.append(problem) }
        }
        if let team = app.teamIdentifier, !profile.teamIdentifiers.isEmpty, !profile.teamIdentifiers.contains(team) {
            problems.append("team \(team) is not the profile's TeamIdentifier \(profile.teamIdentifiers.joined(separator: ", "))")
        }
        return problems
    }

    static func check(key: String, value: PlistValue, allowed: PlistValue) -> String? {
        switch (value, allowed) {
        case (.string(let string), _):
            return Entitlements.grants(allowed.strings, string)
                ? nil
                : "\(key) \(value.rendered) is not allowed by the profile's \(allowed.rendered)"
        case (.array(let elements), _):
            let patterns = allowed.strings
            for element in elements {
                guard let string = element.string else {
                    if allowed.array?.contains(element) != true {
                        return "\(key) element \(element.rendered) is not in the profile"
                    }
                    continue
                }
                if !Entitlements.grants(patterns, string) {
                    return "\(key) element \(element.rendered) is not allowed by the profile's \(allowed.rendered)"
                }
            }
            return nil
        case (.bool(let flag), .bool(let permitted)):
            return !flag || permitted ? nil : "\(key) is true but the profile says false"
        default:
            return value == allowed ? nil : "\(key) \(value.rendered) differs from the profile's \(allowed.rendered)"
        }
    }
}

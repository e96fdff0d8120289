/// Works out what an entitlements change does to the keychain items an old build left behind.
public enum KeychainImpact {
    /// The findings for an upgrade from `old` to `new`, in a fixed order: team, unreachable groups (in the old
    /// build's securityd order), first group, app groups (sorted), access groups missing, development markers.
    /// - Parameter itemCounts: items per access group on a device; without it, every old group could hold items.
    public static func findings(old: Entitlements, new: Entitlements, itemCounts: [String: Int]?) -> [Finding] {
        var findings: [Finding] = []
        let oldGroups = old.accessGroups
        let newGroups = new.accessGroups
        let unreachable = oldGroups.filter { !Entitlements.grants(newGroups, $0) }
        let sharedAppGroups = old.applicationGroups.filter { new.applicationGroups.contains($0) }

        if let before = old.teamIdentifier, let after = new.teamIdentifier, before != after {
            findings.append(
                teamChanged(from: before, to: after, unreachable: unreachable, shared: sharedAppGroups, itemCounts: itemCounts))
        }
        for group in unreachable {
            findings.append(
                group.hasSuffix("*")
                    ? profileWildcard(group, newGroups: newGroups, itemCounts: itemCounts)
                    : unreachableGroup(group, itemCounts: itemCounts))
        }
        // A list with a wildcard (`TEAMID.*`) is a profile's set of allowed patterns, which has no first group.
        let isPattern = { (groups: [String]) in groups.contains { $0.contains("*") } }
        if !isPattern(oldGroups), !isPattern(newGroups), let before = oldGroups.first, let after = newGroups.first,
            before != after
        {
            let reordered = Set(oldGroups) == Set(newGroups)
            let stillGranted = Entitlements.grants(newGroups, before)
            findings.append(
                Finding(
                    .firstGroupChanged, .warning, subject: after,
                    "items added without kSecAttrAccessGroup now land in \(after) instead of \(before)"
                        + (reordered ? " (the same groups, only reordered)" : "")
                        + (stillGranted
                            ? "; reads that name no group still search both, but other apps that share "
                                + "\(before) and not \(after) stop seeing new items" : "")))
        }
        for group in old.applicationGroups.filter({ !new.applicationGroups.contains($0) }).sorted() {
            findings.append(
                Finding(
                    .appGroupRemoved, .warning, subject: group,
                    "app group \(group) removed: the new build loses its shared container and the keychain access group of the same name"
                ))
        }
        for group in new.applicationGroups.filter({ !old.applicationGroups.contains($0) }).sorted() {
            findings.append(
                Finding(
                    .appGroupAdded, .info, subject: group,
                    "app group \(group) added: a shared container and a keychain access group without a team prefix"))
        }
        if newGroups.isEmpty {
            findings.append(
                Finding(
                    .noAccessGroups, .warning, subject: "new",
                    "the new build has no keychain-access-groups, application-identifier or application groups: "
                        + "every keychain call would answer errSecMissingEntitlement (-34018)"))
        }
        for (side, entitlements, severity) in [("old", old, Finding.Severity.info), ("new", new, .warning)] {
            let markers = entitlements.developmentMarkers
            guard !markers.isEmpty else { continue }
            findings.append(
                Finding(
                    .developmentSigning, severity, subject: side,
                    "the \(side) build is development-signed (\(markers.joined(separator: ", "))): "
                        + "not what the App Store or TestFlight installs"))
        }
        return findings
    }

    static func unreachableGroup(_ group: String, itemCounts: [String: Int]?) -> Finding {
        guard let itemCounts else {
            return Finding(
                .unreachableGroup, .error, subject: group,
                "access group \(group) could hold the old build's items, and the new build is not granted it: "
                    + "reads miss them (errSecItemNotFound) and queries naming it fail (errSecMissingEntitlement)")
        }
        let count = itemCounts[group] ?? 0
        guard count > 0 else {
            return Finding(
                .unreachableGroup, .info, subject: group, items: 0,
                "access group \(group) is no longer granted, but holds no items on the device")
        }
        return Finding(
            .unreachableGroup, .error, subject: group, items: count,
            "\(count) item\(count == 1 ? "" : "s") in access group \(group) that the new build could no longer reach")
    }

    /// A wildcard is what a profile allows, so what it costs depends on the concrete groups the old build used:
    /// with item counts those are the device's groups it matches; without them it is a warning to look.
    static func profileWildcard(_ pattern: String, newGroups: [String], itemCounts: [String: Int]?) -> Finding {
        let what =
            "\(pattern) is a provisioning profile's wildcard: it let the old side's builds use any group it matches, "
            + "but holds no items itself"
        let granted = newGroups.filter { Entitlements.grants([pattern], $0) && !$0.hasSuffix("*") }
        guard let itemCounts else {
            let kept = granted.isEmpty ? "none of them" : "only " + granted.joined(separator: ", ")
            return Finding(
                .profileWildcard, .warning, subject: pattern,
                "\(what); the new build is granted \(kept), so items the old build kept in any other group it matches "
                    + "would be unreachable (diff the old build's executable or .entitlements to see the groups it used)")
        }
        let stranded = itemCounts.keys.sorted().filter {
            Entitlements.grants([pattern], $0) && !Entitlements.grants(newGroups, $0) && (itemCounts[$0] ?? 0) > 0
        }
        let count = stranded.reduce(0) { $0 + (itemCounts[$1] ?? 0) }
        guard count > 0 else {
            return Finding(
                .profileWildcard, .info, subject: pattern, items: 0,
                "\(what); no items on the device sit in a group it matches that the new build is not granted")
        }
        let groups = stranded.map { "\($0) (\(itemCounts[$0] ?? 0))" }.joined(separator: ", ")
        return Finding(
            .profileWildcard, .error, subject: pattern, items: count,
            "\(what); \(count) item\(count == 1 ? "" : "s") on the device sit in groups it matches that the new build "
                + "could no longer reach: \(groups)")
    }

    static func teamChanged(
        from before: String, to after: String, unreachable: [String], shared: [String],
        itemCounts: [String: Int]?
    ) -> Finding {
        let lost = unreachable.filter { $0.hasPrefix(before + ".") }
        let bridge =
            shared.isEmpty
            ? "The builds share no app group, so no bridge can work as they stand."
            : "Both builds list \(shared.joined(separator: ", ")), which a bridge can use."
        var message =
            "team prefix changes from \(before) to \(after) (an app transfer): every item in a \(before)-prefixed "
            + "access group becomes unreachable. Only a bridge release prevents that: an update still signed by \(before) "
            + "that copies each item into an app-group access group (group.*, which has no team prefix and moves with the "
            + "app), reads each copy back, and only then deletes the original; the new build then reads them there. "
            + bridge
        var severity = Finding.Severity.error
        var items: Int?
        if let itemCounts {
            let remaining = lost.reduce(0) { $0 + max(0, itemCounts[$1] ?? 0) }
            items = remaining
            if remaining == 0 {
                severity = .warning
                message += " The device holds no items in \(before)-prefixed groups, as after a bridge."
            } else {
                message += " The device still holds \(remaining) item\(remaining == 1 ? "" : "s") in \(before)-prefixed groups."
            }
        }
        return Finding(.teamChanged, severity, subject: "\(before) -> \(after)", items: items, message)
    }
}

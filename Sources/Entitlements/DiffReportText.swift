extension DiffReport {
    /// The report for people: sources, key changes, access groups, findings and the verdict; deterministic.
    public var text: String {
        var lines: [String] = []
        lines.append("old  \(old.input): \(old.summary)")
        lines.append("new  \(new.input): \(new.summary)")
        lines.append("")
        lines.append("keys")
        if changes.isEmpty { lines.append("  (no changes)") }
        for change in changes {
            switch change.kind {
            case .added:
                lines.append("  + \(change.key): \(change.new?.rendered ?? "")")
            case .removed:
                lines.append("  - \(change.key): \(change.old?.rendered ?? "")")
            case .changed:
                guard case .array(let before)? = change.old, case .array(let after)? = change.new else {
                    lines.append("  ~ \(change.key): \(change.old?.rendered ?? "") -> \(change.new?.rendered ?? "")")
                    continue
                }
                lines.append("  ~ \(change.key)")
                lines += change.elementsAdded.map { "      + \($0.rendered)" }
                lines += change.elementsRemoved.map { "      - \($0.rendered)" }
                if change.orderChanged {
                    lines.append("      order \(PlistValue.array(before).rendered) -> \(PlistValue.array(after).rendered)")
                }
            }
        }
        lines.append("")
        lines.append("access groups (securityd order; items added without a group land in the first)")
        lines.append("  old  " + (old.accessGroups.isEmpty ? "(none)" : old.accessGroups.joined(separator: ", ")))
        lines.append("  new  " + (new.accessGroups.isEmpty ? "(none)" : new.accessGroups.joined(separator: ", ")))
        if let itemCounts {
            lines.append("")
            lines.append("items per access group on the device")
            if itemCounts.isEmpty { lines.append("  (none)") }
            let width = itemCounts.keys.map(\.count).max() ?? 0
            for group in itemCounts.keys.sorted() {
                lines.append("  \(group.padding(toLength: width, withPad: " ", startingAt: 0))  \(itemCounts[group] ?? 0)")
            }
        }
        lines.append("")
        lines.append("keychain impact")
        if findings.isEmpty { lines.append("  (none)") }
        for finding in findings {
            let severity = finding.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            let subject = finding.subject.map { " [\($0)]" } ?? ""
            lines.append("  \(severity)\(finding.id.rawValue)\(subject): \(finding.message)")
        }
        if let unreachableItems, let itemCounts {
            // A profile's wildcard group counts the device's groups it matches.
            let total = itemCounts.filter { Entitlements.grants(old.accessGroups, $0.key) }.values.reduce(0) { $0 + max(0, $1) }
            lines.append("")
            lines.append("items the new build could no longer reach: \(unreachableItems) of \(total) in the old build's groups")
        }
        if let extensions {
            lines.append("")
            lines.append("extensions")
            if extensions.isEmpty { lines.append("  (none)") }
            for item in extensions {
                let groups = { (list: [String]?) in
                    list.map { $0.isEmpty ? "(none)" : $0.joined(separator: ", ") } ?? "(not in this build)"
                }
                lines.append("  \(item.name)")
                lines.append("    old  " + groups(item.oldAccessGroups))
                lines.append("    new  " + groups(item.newAccessGroups))
                for finding in item.findings {
                    let severity = finding.severity.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
                    let subject = finding.subject.map { " [\($0)]" } ?? ""
                    lines.append("    \(severity)\(finding.id.rawValue)\(subject): \(finding.message)")
                }
            }
        }
        lines.append("")
        switch verdict {
        case .compatible:
            lines.append("verdict: PASS (exit 0): nothing the old build could reach becomes unreachable to the new build")
        case .incompatible:
            lines.append("verdict: FAIL (exit 1): the new build cannot reach items the old build could")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

import GateModel
import SimDevice

extension RunInputs {
    /// Build id to the names of its app extensions, for each of `ids` whose build declares one; nil when none does.
    package static func extensionNames(of builds: [String: Build], ids: [String]) -> [String: [String]]? {
        var names: [String: [String]] = [:]
        for id in ids {
            guard let build = builds[id], !build.extensions.isEmpty else { continue }
            names[id] = build.extensions.map(\.name)
        }
        return names.isEmpty ? nil : names
    }

    /// Records which builds declare app extensions (run.json's `extensions`, left out when none does),
    /// and fits the scenarios to them before anything runs: extension-first and interleavings
    /// (``Scenario/needsExtension``) run on the paths whose new build declares one. One of them that no
    /// path of the run can take is left out of the scenarios (so a run of builds without extensions
    /// records, plans and writes what it did before those scenarios existed), unless the caller named
    /// it (`named`: the field or flag that named the scenarios), which is bad input.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming `named` and the scenario.
    package mutating func recordExtensions(of resolved: [String: Build], named: GateField?) throws(GateError) {
        extensions = Self.extensionNames(of: resolved, ids: builds)
        let needing = scenarios.filter(\.needsExtension)
        guard !needing.isEmpty else { return }
        var probe = self
        probe.scenarios = needing
        // Recorded or not, none is none here (run.json's nil stands for "every path" only in a runner's before it).
        probe.extensions = extensions ?? [:]
        let planned = Set(((try? probe.plan())?.units(in: nil) ?? []).map(\.scenario))
        let missing = needing.filter { !planned.contains($0) }
        guard !missing.isEmpty else { return }
        if let named {
            let none =
                path.map { "\($0.new) declares none" }
                ?? "no upgrade path of \(builds.joined(separator: ", ")) ends at a build that declares one"
            throw .invalidValue(
                field: named, value: scenarios.map(\.rawValue).joined(separator: ","),
                reason: "names \(missing.map(\.rawValue).joined(separator: ", ")), which \(missing.count == 1 ? "runs" : "run") "
                    + "only where the new build declares an app extension (build.json \"extensions\"): \(none)")
        }
        scenarios.removeAll { missing.contains($0) }
    }
}

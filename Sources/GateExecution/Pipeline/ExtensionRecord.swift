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

    /// Those of `ids` whose build declares a synchronizable keychain secret, in their order; nil when none does.
    package static func synchronizableBuilds(of builds: [String: Build], ids: [String]) -> [String]? {
        let chosen = ids.filter { id in
            builds[id]?.manifest.keeps?.secrets.contains {
                if case .keychain(let item) = $0.store { item.synchronizable } else { false }
            } ?? false
        }
        return chosen.isEmpty ? nil : chosen
    }

    /// Records what the builds declare that decides where some scenarios run, and fits the scenarios to
    /// it before anything runs: which builds declare app extensions (run.json's `extensions`) for
    /// extension-first and interleavings (``Scenario/needsExtension``: where the new build declares
    /// one), and which keep a synchronizable secret (run.json's `synchronizable`) for second-device
    /// (``Scenario/needsSynchronizable``: where the last hop starts at one). Each record is left out
    /// when no build has it. A scenario that no path of the run can take is left out of the scenarios
    /// (so a run of builds without them records, plans and writes what it did before those scenarios
    /// existed), unless the caller named it (`named`: the field or flag that named the scenarios),
    /// which is bad input.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming `named` and the scenario.
    package mutating func recordBuildFeatures(of resolved: [String: Build], named: GateField?) throws(GateError) {
        extensions = Self.extensionNames(of: resolved, ids: builds)
        synchronizable = Self.synchronizableBuilds(of: resolved, ids: builds)
        let needing = scenarios.filter { $0.needsExtension || $0.needsSynchronizable }
        guard !needing.isEmpty else { return }
        var probe = self
        probe.scenarios = needing
        // Recorded or not, none is none here (run.json's nil stands for "every path" only in a runner's before it).
        probe.extensions = extensions ?? [:]
        probe.synchronizable = synchronizable ?? []
        let planned = Set(((try? probe.plan())?.units(in: nil) ?? []).map(\.scenario))
        let missing = needing.filter { !planned.contains($0) }
        guard !missing.isEmpty else { return }
        if let named {
            let reasons = missing.map { scenario in
                scenario.needsExtension
                    ? "\(scenario.rawValue), which runs only where the new build declares an app extension (build.json \"extensions\"): "
                        + (path.map { "\($0.new) declares none" }
                            ?? "no upgrade path of \(builds.joined(separator: ", ")) ends at a build that declares one")
                    : "\(scenario.rawValue), which runs only where the release the second device keeps (the last hop's first build) "
                        + "declares a synchronizable keychain secret (build.json \"keeps\", \"synchronizable\": true): "
                        + (path.map { "\($0.previous ?? $0.new) declares none" }
                            ?? "no upgrade path of \(builds.joined(separator: ", ")) starts its last hop at a build that declares one")
            }
            throw .invalidValue(
                field: named, value: scenarios.map(\.rawValue).joined(separator: ","),
                reason: "names " + reasons.joined(separator: "; "))
        }
        scenarios.removeAll { missing.contains($0) }
    }
}

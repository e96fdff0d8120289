import GateModel
import SimDevice

/// The policies the gate's builds declare (their manifests' ``BuildPolicies``), as the report lists
/// them: each with its reason and, when a path's previous build did not declare the same, that
/// build's id, so the summary shows the policy as a product change to review. A policy changes
/// what its condition requires (reinstall-sweeps reads the new build's); it is never a failure.
enum DeclaredPolicies {
    static func report(builds: [String: Build], units: [PlanUnit]) -> [GateReport.Policy] {
        var notes: [GateReport.Policy] = []
        for (id, build) in builds {
            for declared in build.manifest.policies?.declared ?? [] {
                let previous = Set(units.filter { $0.path.new == id }.compactMap { $0.path.via.last ?? $0.path.old })
                let without = previous.filter { old in
                    !(builds[old]?.manifest.policies?.declared ?? []).contains {
                        $0.topic == declared.topic && $0.policy == declared.policy
                    }
                }
                notes.append(
                    GateReport.Policy(
                        build: id, topic: declared.topic, policy: declared.policy, reason: declared.reason,
                        newSince: without.isEmpty ? nil : without.sorted()))
            }
        }
        return notes.sorted()
    }
}

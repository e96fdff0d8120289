import Entitlements
import Foundation
import GateModel
import SimDevice

/// The gate's use of the Entitlements module: two installed builds' entitlements against the items
/// on a device. The same reader and diff as `upgrade-runner entitlements diff`, not a second one.
enum EntitlementsDiffer {
    struct Result {
        var exitCode: Int32
        var text: String
        var summary: String
    }

    static func diff(old: Build, new: Build, itemCounts: [String: Int]) throws -> Result {
        func load(_ build: Build) throws -> LoadedEntitlements {
            try EntitlementsLoader.loadBuild(
                folder: build.folder, input: build.manifest.id,
                variables: XcodeVariables(
                    team: build.identity.teamIdentifier,
                    bundleID: build.manifest.bundleID))
        }
        // Builds with extensions compare each extension's entitlements too (issue 39); without, as before.
        let report =
            old.manifest.extensions == nil && new.manifest.extensions == nil
            ? DiffReport(old: try load(old), new: try load(new), itemCounts: itemCounts)
            : try DiffReport.builds(
                oldFolder: old.folder, newFolder: new.folder, oldInput: old.manifest.id, newInput: new.manifest.id,
                variables: XcodeVariables(team: new.identity.teamIdentifier, bundleID: new.manifest.bundleID),
                itemCounts: itemCounts)
        let errors = (report.findings + (report.extensions ?? []).flatMap(\.findings)).filter { $0.severity == .error }
        let summary = errors.isEmpty ? "compatible" : errors.map(\.message).joined(separator: "; ")
        return Result(exitCode: report.exitCode, text: report.text, summary: summary)
    }
}

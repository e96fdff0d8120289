import Foundation
import GateExecution
import GateModel

/// One upgrade checked inside a team's own tests (`swift test`), as Room's `MigrationTestHelper`
/// checks one database migration: the gate's cells for `old` to `new` (and a fresh install of
/// each), run on simulated devices by the gate's own checkers, with what they found as values.
///
/// ```swift
/// @Test func passwordsSurviveTheUpgrade() throws {
///     let result = try UpgradeCheck(old: "mail1", new: "mail2", scenarios: [.upgrade, .crashPoints]).run()
///     #expect(result.failures.isEmpty, "\(result)")
/// }
/// ```
///
/// The defaults suit a test target of the package that holds the app builds: the executables are
/// looked up beside the running test executable (`swift build --build-tests` or `swift test` builds
/// them into the same folder), and `builds/` in the first folder above it that holds a
/// `Package.swift`. The artifacts go to a folder of the temporary folder, readable by its owner
/// alone; it is removed when the check passes and kept, named in ``UpgradeCheckResult/folder``,
/// when it does not. Bad input (an unknown build, builds out of order) throws ``GateError`` with
/// the command line's message.
public struct UpgradeCheck: Sendable {
    /// The old build's id (its `builds/<id>/build.json`), seeded first.
    public var old: String
    /// The new build's id: the release under test.
    public var new: String
    /// The scenarios to run (default: the gate's default list). A list other than the default names
    /// its scenarios: one that needs what neither build declares (extension-first and interleavings an
    /// app extension of `new`, second-device a synchronizable secret of `old`) throws ``GateError``,
    /// as `gate --scenarios` exits 2, rather than pass without running; the default list leaves such
    /// scenarios out where they cannot run.
    public var scenarios: [Scenario]
    /// The test-case id the secrets derive from; a fixed one makes the check repeatable.
    public var caseID: String
    /// The builds folder, absolute.
    public var buildsFolder: String
    /// Where the builds' executables are, absolute.
    public var productsFolder: String
    /// Cells run in parallel (default: the number of CPUs).
    public var jobs: Int

    /// A check of `old` to `new`; see the type's documentation for the defaults.
    public init(
        old: String, new: String, scenarios: [Scenario] = Scenario.gateDefault, caseID: String = "upgrade-check",
        buildsFolder: String? = nil, productsFolder: String? = nil,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        let products = productsFolder ?? Self.runningExecutableFolder()
        self.old = old
        self.new = new
        self.scenarios = scenarios
        self.caseID = caseID
        self.productsFolder = products
        self.buildsFolder = buildsFolder ?? Self.packageBuilds(above: products)
        self.jobs = jobs
    }

    /// Runs the check and returns what the gate found.
    /// - Throws: ``GateError`` for bad input, before any cell runs; a file error when the
    ///   temporary folder cannot be made.
    public func run() throws -> UpgradeCheckResult {
        let folder = try Self.makePrivateFolder(named: "upgrade-check-\(old)-to-\(new)")
        var request = GateRequest(
            builds: [old, new], scenarios: scenarios, caseID: caseID, jobs: jobs, out: folder,
            buildsFolder: buildsFolder, productsFolder: productsFolder)
        request.scenariosNamed = Set(scenarios) != Set(Scenario.gateDefault)
        let report: GateReport
        do {
            report = try ReleaseGate.run(request)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        let result = UpgradeCheckResult(report: report, folder: folder)
        if result.passed { try? FileManager.default.removeItem(atPath: folder) }
        return result
    }

    /// The folder of the running executable (a test process's `.build/<configuration>`).
    static func runningExecutableFolder() -> String {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments.first ?? "."
        return URL(fileURLWithPath: executable).deletingLastPathComponent().standardizedFileURL.path
    }

    /// `builds/` of the first folder at or above `folder` that holds a `Package.swift`, else `./builds`.
    static func packageBuilds(above folder: String) -> String {
        var url = URL(fileURLWithPath: folder).standardizedFileURL
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.appendingPathComponent("builds").path
            }
            url.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("builds").path
    }

    /// A new folder of the temporary folder, 0700 (the devices' secrets never reach it, but a
    /// failed check's artifacts are its owner's to read).
    static func makePrivateFolder(named name: String) throws -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/\(name).XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: "\(base)/\(name).XXXXXX"])
        }
        return String(cString: made)
    }
}

/// What an ``UpgradeCheck`` found: the verdict and the findings that decide it, as values.
public struct UpgradeCheckResult: Sendable, CustomStringConvertible {
    /// The whole report, as gate.json holds it.
    public let report: GateReport
    /// The artifacts folder (kept only when the check did not pass).
    public let folder: String

    /// PASS, FAIL or UNKNOWN, as the gate decides it for the new build.
    public var verdict: Verdict { report.verdict }
    /// Whether the verdict is PASS.
    public var passed: Bool { report.verdict == .pass }

    /// The FAIL and UNKNOWN findings of the paths that end at the new build, but those the gate
    /// excused as pre-existing and hygiene warnings, in the gate's order.
    public var failures: [GateFinding] {
        let excused = report.strict == true ? [] : Set((report.preExisting ?? []).flatMap { $0.findings ?? [] }.map(\.finding))
        return report.allFindings.filter { finding in
            guard finding.verdict != .pass, finding.warning != true, finding.notJudged != true else { return false }
            if let path = finding.path, !report.decides(path) { return false }
            return !excused.contains(finding)
        }
    }

    /// The failures of one condition.
    public func failures(_ condition: GateCondition) -> [GateFinding] {
        failures.filter { $0.condition == condition }
    }

    /// The verdict and each failure on a line of its own (what `#expect`'s message shows).
    public var description: String {
        ([
            "\(report.verdict) (artifacts: \(passed ? "removed" : folder))"
        ] + failures.map { "\($0.cell?.description ?? $0.condition.rawValue): \($0.message)" })
        .joined(separator: "\n")
    }
}

import Foundation
@testable import GateModel
import GateTestSupport
import SimRuntime
import TestSupport
import Testing

/// The bad-input suite of issue 29: every row is an input (its words and the files it sets up in a
/// sandbox), the exit code, the one line it must print, and the proof that nothing was written or
/// deleted because of it: a listing of the whole sandbox (every path's kind, mode, size and
/// SHA-256, links not followed) before and after, which must be equal.
///
/// Each row runs the built `upgrade-runner` executable in its own sandbox, with HOME, TMPDIR, the
/// devices root, the builds and the products folder all inside it: what a user's machine would
/// see. The classes are the audit's: flags, `--out` states, manifests, entitlements, executables
/// and concurrent runs. (Bundles and tampered archives belong to the bundle and replay suites.)
@Suite struct BadInputSuiteTests {
    /// One bad input.
    struct Row: CustomTestStringConvertible, Sendable {
        var name: String
        /// Sets up the sandbox and returns the words after `upgrade-runner`.
        var setUp: @Sendable (Sandbox) throws -> [String]
        var code: Int32 = 2
        /// A regular expression the one error line must match (`error: ` and the rest).
        var message: String
        var testDescription: String { name }
    }

    static let rows: [Row] = flagRows + outRows + manifestRows + entitlementsRows + executableRows

    @Test("a bad input gets one line naming what the user gave, its exit code, and changes nothing", arguments: rows)
    func badInput(row: Row) throws {
        let sandbox = try Sandbox()
        let words = try row.setUp(sandbox)
        let before = try sandbox.listing()
        let result = try sandbox.run(words)
        let after = try sandbox.listing()
        #expect(result.status == row.code, "\(row.name): exit \(result.status): \(result.stderr)")
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1, "\(row.name): not one line: \(result.stderr.debugDescription)")
        #expect(!result.stderr.unicodeScalars.contains { $0 == "\u{1b}" }, "\(row.name): a raw ESC on the terminal")
        let line = lines.first.map(String.init) ?? ""
        #expect(line.firstMatch(of: try Regex("^error: " + row.message)) != nil, "\(row.name): \(line)")
        #expect(!line.contains("NSCocoaErrorDomain") && !line.contains(sandbox.temporary + "/upgrade-runner-"), "\(line)")
        #expect(result.stdout.isEmpty, "\(row.name): \(result.stdout)")
        #expect(before == after, "\(row.name) changed the sandbox: \(Sandbox.difference(before, after))")
    }

    // MARK: Flags

    static let flagRows: [Row] = [
        Row(
            name: "--out given twice", setUp: { ["gate", "--builds", "v1", "--out", $0.path("a"), "--out", $0.path("b")] },
            message: "gate: option --out is given twice \\(\".*/a\" and \".*/b\"\\); give it once$"),
        Row(
            name: "--case-id given twice", setUp: { _ in ["gate", "--case-id", "a1", "--case-id", "b2"] },
            message: "gate: option --case-id is given twice"),
        Row(name: "--builds \"\"", setUp: { _ in ["gate", "--builds", ""] }, message: "--builds: \"\" is empty"),
        Row(name: "--out \"\"", setUp: { _ in ["gate", "--builds", "v1", "--out", ""] }, message: "--out: \"\" is empty"),
        Row(name: "--out=\"\" on mutants", setUp: { _ in ["mutants", "--out="] }, message: "--out: \"\" is empty"),
        Row(
            name: "--builds naming an unknown build",
            setUp: { s in
                try s.copyBuild("v1")
                return ["gate", "--builds", "v1,v77", "--out", s.path("out")]
            }, message: ".*v77"),
        Row(
            name: "mutants --builds v1,v77 creates no --out",
            setUp: { s in
                try s.copyBuild("v1")
                return ["mutants", "--builds", "v1,v77", "--builds-dir", RunFoldersPath.repositoryBuilds, "--out", s.path("out")]
            }, message: "unknown build \"v77\""),
        Row(
            name: "an unknown option gets a hint", setUp: { _ in ["gate", "--scenario", "upgrade"] },
            message: "gate: unknown option --scenario; did you mean --scenarios\\?$"),
        Row(
            name: "a newline and ESC in --out are escaped",
            setUp: { s in
                try s.copyBuild("v1")
                let odd = s.path("odd\nname\u{1b}[31m")
                try Data("a file".utf8).write(to: URL(fileURLWithPath: odd))
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--out", odd]
            }, message: ".*odd\\\\nname\\\\u\\{1b\\}\\[31m: is a file, not a folder$"),
        Row(
            name: "--jobs given twice", setUp: { _ in ["gate", "--builds", "v1", "--jobs", "1", "--jobs=2"] },
            message: "gate: option --jobs is given twice \\(\"1\" and \"2\"\\); give it once$"),
        Row(
            name: "device create --udid given twice",
            setUp: { _ in ["device", "create", "Phone", "--udid", "A", "--udid", "B"] },
            message: "device create: option --udid is given twice"),
        Row(
            name: "replay --out given twice",
            setUp: { s in ["replay", s.path("run"), "--out", s.path("a"), "--out", s.path("b")] },
            message: "replay: option --out is given twice"),
        Row(name: "mutants --builds \"\"", setUp: { _ in ["mutants", "--builds", ""] }, message: "--builds: \"\" is empty"),
        Row(
            name: "merge --out \"\"", setUp: { s in ["merge", s.path("a"), s.path("b"), "--out", ""] },
            message: "--out: \"\" is empty"),
        Row(
            name: "a newline in a build id is escaped", setUp: { _ in ["gate", "--builds", "v1,v\n2"] },
            message: "[^\\n]*v\\\\n2"),
    ]

    // MARK: --out states

    static let outRows: [Row] = [
        Row(
            name: "--out below a file (/dev/null/x)",
            setUp: { s in
                try s.copyBuild("v1")
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--out", "/dev/null/x"]
            }, message: "/dev/null/x: cannot be created: /dev/null is not a folder$"),
        Row(
            name: "--out holding a user's inputs/ (a runner's folder name, no marker)",
            setUp: { s in
                try s.copyBuild("v1")
                try s.write("out/inputs/thesis.tex", "\\documentclass{article}")
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--out", s.path("out")]
            }, message: ".*/out: holds inputs, which this tool did not write"),
        Row(
            name: "--force with a user's inputs/",
            setUp: { s in
                try s.copyBuild("v1")
                try s.write("out/inputs/thesis.tex", "\\documentclass{article}")
                try s.write("out/notes.txt", "mine")
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--force", "--out", s.path("out")]
            }, message: ".*/out: holds inputs, which this tool did not write"),
        Row(
            name: "a symbolic link planted as the marker",
            setUp: { s in
                try s.copyBuild("v1")
                try s.write("precious.txt", "do not overwrite")
                try s.folder("out")
                try FileManager.default.createSymbolicLink(
                    atPath: s.path("out/" + GateArtifacts.inProgressMarker), withDestinationPath: s.path("precious.txt"))
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--force", "--out", s.path("out")]
            }, message: ".*/out: holds .upgrade-runner-in-progress that is not a file this tool wrote"),
        Row(
            name: "a hard link planted as the marker",
            setUp: { s in
                try s.copyBuild("v1")
                try s.write("precious.txt", "in progress\nmine")
                try s.folder("out")
                #expect(link(s.path("precious.txt"), s.path("out/" + GateArtifacts.inProgressMarker)) == 0)
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--out", s.path("out")]
            }, message: ".*/out: holds .upgrade-runner-in-progress that is not a file this tool wrote"),
        Row(
            name: "a marker the runner did not write",
            setUp: { s in
                try s.copyBuild("v1")
                try s.write("out/" + GateArtifacts.inProgressMarker, "my notes")
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--force", "--out", s.path("out")]
            }, message: ".*/out: holds a .upgrade-runner-in-progress that this tool did not write"),
        Row(
            name: "a link named run.json in a finished run's folder",
            setUp: { s in
                try s.copyBuild("v1")
                try s.finishedRun("out")
                try s.write("precious.txt", "mine")
                try FileManager.default.removeItem(atPath: s.path("out/run.json"))
                try FileManager.default.createSymbolicLink(
                    atPath: s.path("out/run.json"), withDestinationPath: s.path("precious.txt"))
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--force", "--out", s.path("out")]
            }, message: ".*/out: holds run.json, which this tool did not write"),
        Row(
            name: "--out inside a build's folder",
            setUp: { s in
                try s.copyBuild("v1")
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--out", s.path("builds/v1/out")]
            }, message: ".*/builds/v1/out: is inside the builds folder .*/builds; choose a folder outside it$"),
        Row(
            name: "--out inside the products folder",
            setUp: { s in
                try s.copyBuild("v1")
                try s.folder("products")
                try FileManager.default.createSymbolicLink(
                    atPath: s.path("products/LedgerV1"), withDestinationPath: BuiltProducts.executable("LedgerV1"))
                return [
                    "gate", "--builds", "v1", "--scenarios", "fresh-install", "--products", s.path("products"), "--out",
                    s.path("products/gate"),
                ]
            }, message: ".*/products/gate: is inside the products folder .*/products; choose a folder outside it$"),
        Row(
            name: "run --out inside a build's folder",
            setUp: { s in
                try s.copyBuild("v1")
                try s.copyBuild("v2")
                return ["run", "--from", "v1", "--to", "v2", "--scenario", "upgrade", "--out", s.path("builds/v2/out")]
            }, message: ".*/builds/v2/out: is inside the builds folder .*/builds; choose a folder outside it$"),
        Row(
            name: "mutants --out inside the builds folder",
            setUp: { s in
                try FileManager.default.removeItem(atPath: s.builds)
                try FileManager.default.copyItem(atPath: RunFoldersPath.repositoryBuilds, toPath: s.builds)
                return ["mutants", "--builds", "v1", "--out", s.path("builds/mutants-out")]
            }, message: ".*/builds/mutants-out: is inside the builds folder .*/builds; choose a folder outside it$"),
        Row(
            name: "a link planted as the mutants marker",
            setUp: { s in
                try s.write("precious.txt", "upgrade-runner mutants\n")
                try s.folder("out")
                try FileManager.default.createSymbolicLink(
                    atPath: s.path("out/.upgrade-runner-mutants"), withDestinationPath: s.path("precious.txt"))
                return ["mutants", "--builds", "v1", "--builds-dir", RunFoldersPath.repositoryBuilds, "--out", s.path("out")]
            }, message: ".*/out: holds files that are not a mutants run's$"),
        Row(
            name: "a user's file in a mutants run's folder",
            setUp: { s in
                try s.write("out/.upgrade-runner-mutants", "upgrade-runner mutants\n")
                try s.write("out/thesis.tex", "mine")
                return ["mutants", "--builds", "v1", "--builds-dir", RunFoldersPath.repositoryBuilds, "--out", s.path("out")]
            }, message: ".*/out: holds thesis.tex, which a mutants run did not write; move it or choose another folder$"),
        Row(
            name: "a second run on a locked --out",
            setUp: { s in
                try s.copyBuild("v1")
                try s.finishedRun("out")
                s.holdLock("out")
                return ["gate", "--builds", "v1", "--scenarios", "fresh-install", "--force", "--out", s.path("out")]
            }, message: ".*/out: is being written by a live run \\(pid \(getpid())\\)$"),
        Row(
            name: "mutants into a folder that is not a mutants run's",
            setUp: { s in
                try s.copyBuild("v1")
                try s.write("out/thesis.tex", "mine")
                return ["mutants", "--builds", "v1", "--builds-dir", RunFoldersPath.repositoryBuilds, "--out", s.path("out")]
            }, message: ".*/out: holds files that are not a mutants run's$"),
    ]

    // MARK: build.json

    static let manifestRows: [Row] = [
        Row(
            name: "an unknown field with a did-you-mean",
            setUp: { s in
                try s.copyBuild("v1") { $0["schemVersion"] = 1 }
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            },
            message:
                ".*/builds/v1/build.json: field \"schemVersion\" is not a build manifest field; did you mean \"schemaVersion\"\\?$"
        ),
        Row(
            name: "artefactWindowDays of -5",
            setUp: { s in
                try s.copyBuild("v1") { $0["artefactWindowDays"] = -5 }
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            }, message: ".*/builds/v1/build.json: field \"artefactWindowDays\" is -5, not a number of days from 0 to 3650$"),
        Row(
            name: "an unknown expectedCondition on gate",
            setUp: { s in
                try s.copyBuild("v1") { $0["expectedCondition"] = "reads-old-dta" }
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            },
            message:
                ".*/builds/v1/build.json: field \"expectedCondition\" names unknown condition \"reads-old-dta\"; did you mean \"reads-old-data\"\\?$"
        ),
        Row(
            name: "an unknown expectedCondition on run",
            setUp: { s in
                try s.copyBuild("v1")
                try s.copyBuild("v2") { $0["expectedCondition"] = "no-such-condition" }
                return ["run", "--from", "v1", "--to", "v2", "--scenario", "upgrade", "--out", s.path("out")]
            }, message: ".*/builds/v2/build.json: field \"expectedCondition\" names unknown condition \"no-such-condition\"$"),
        Row(
            name: "a 30 MB note",
            setUp: { s in
                try s.copyBuild("v1") { $0["notes"] = String(repeating: "n", count: 30 << 20) }
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            }, message: ".*/builds/v1/build.json: is 314\\d{5} bytes, more than a build manifest holds"),
        Row(
            name: "a 1 MB label",
            setUp: { s in
                try s.copyBuild("v1") { manifest in
                    Sandbox.setFirstSecret(&manifest, "label", String(repeating: "l", count: 1 << 20))
                }
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            }, message: ".*/builds/v1/build.json: is 10\\d{5} bytes, more than a build manifest holds"),
        Row(
            name: "a 300-character label",
            setUp: { s in
                try s.copyBuild("v1") { manifest in
                    Sandbox.setFirstSecret(&manifest, "label", String(repeating: "l", count: 300))
                }
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            }, message: ".*/builds/v1/build.json: field \"keeps.secrets\\[0\\].label\" is 300 characters, more than 255$"),
        Row(
            name: "an app group file in group ../../x",
            setUp: { s in
                try s.copyBuild("v1") { manifest in
                    Sandbox.setFirstSecret(&manifest, "store", ["kind": "appGroupFile", "group": "../../x", "file": "token"])
                }
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            },
            message:
                ".*/builds/v1/build.json: field \"keeps.secrets\\[0\\].store.group\" \"../../x\" is not an app group identifier"),
        Row(
            name: "a key given twice in build.json (jq and Python read the last, Foundation the first)",
            setUp: { s in
                try s.copyBuild("v1")
                let file = s.path("builds/v1/build.json")
                let text = try String(contentsOfFile: file, encoding: .utf8)
                try text.replacingOccurrences(
                    of: "{", with: "{\"marketingVersion\": \"9.9\",", options: [], range: text.range(of: "{")
                )
                .write(toFile: file, atomically: true, encoding: .utf8)
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            },
            message:
                ".*/builds/v1/build.json: field \"marketingVersion\" appears more than once \\(JSON readers disagree on which one counts\\)$"
        ),
        Row(
            name: "a nested key given twice in build.json, spelt with an escape",
            setUp: { s in
                try s.copyBuild("v1")
                let file = s.path("builds/v1/build.json")
                let text = try String(contentsOfFile: file, encoding: .utf8)
                try text.replacingOccurrences(
                    of: "\"label\"", with: "\"l\\u0061bel\": \"other\", \"label\"", options: [],
                    range: text.range(of: "\"label\"")
                )
                .write(toFile: file, atomically: true, encoding: .utf8)
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            }, message: ".*/builds/v1/build.json: field \"keeps.secrets\\[0\\].label\" appears more than once"),
    ]

    // MARK: Entitlements

    static let entitlementsRows: [Row] = [
        Row(
            name: "an app group ../../x in the entitlements",
            setUp: { s in
                try s.copyBuild("v1")
                var plist =
                    try PropertyListSerialization.propertyList(
                        from: Data(contentsOf: URL(fileURLWithPath: s.path("builds/v1/Ledger.entitlements"))), format: nil)
                    as! [String: Any]
                plist["com.apple.security.application-groups"] = ["../../x"]
                try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
                    .write(to: URL(fileURLWithPath: s.path("builds/v1/Ledger.entitlements")))
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            }, message: ".*Ledger.entitlements.*application-groups element 0 \"../../x\" is not an app group identifier"),
        Row(
            name: "an entitlements file that is a link out of the builds folder",
            setUp: { s in
                try s.copyBuild("v1")
                try s.folder("elsewhere")
                try FileManager.default.moveItem(
                    atPath: s.path("builds/v1/Ledger.entitlements"), toPath: s.path("elsewhere/Ledger.entitlements"))
                try FileManager.default.createSymbolicLink(
                    atPath: s.path("builds/v1/Ledger.entitlements"), withDestinationPath: s.path("elsewhere/Ledger.entitlements"))
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            },
            message:
                ".*/builds/v1/Ledger.entitlements: is outside the builds folder .*/builds \\(a link or path out of it, named by .*/builds/v1/build.json\\)"
        ),
        Row(
            name: "a missing entitlements file",
            setUp: { s in
                try s.copyBuild("v1")
                try FileManager.default.removeItem(atPath: s.path("builds/v1/Ledger.entitlements"))
                return ["gate", "--builds", "v1", "--out", s.path("out")]
            }, message: ".*builds/v1/Ledger.entitlements"),
    ]

    // MARK: Executables (preflight runs nothing that is not an app build)

    static func executableRow(_ name: String, reason: String, make: @escaping @Sendable (String) throws -> Void) -> Row {
        Row(
            name: name,
            setUp: { s in
                try s.copyBuild("v1") { $0["executable"] = "Bad" }
                try s.folder("products")
                try make(s.path("products/Bad"))
                return [
                    "gate", "--builds", "v1", "--scenarios", "fresh-install", "--products", s.path("products"),
                    "--out", s.path("out"),
                ]
            }, message: ".*/builds/v1/build.json: build v1's executable .*/products/Bad \(reason)$")
    }

    static let executableRows: [Row] = [
        executableRow("an executable that is a folder", reason: "is a folder, not an executable") { path in
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        },
        executableRow(
            "a shell script that deletes a file outside the device", reason: "is a script \\(#!\\), not an app build's executable"
        ) { path in
            let victim = (path as NSString).deletingLastPathComponent + "/../victim.txt"
            try Data("still here".utf8).write(to: URL(fileURLWithPath: victim))
            try Data("#!/bin/sh\nrm -f \(victim)\n".utf8).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        },
        executableRow(
            "a corrupt binary", reason: "is not an executable this machine runs \\(no ELF header: a corrupt or foreign file\\)"
        ) { path in
            try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        },
        executableRow(
            "a Mach-O executable",
            reason: "is a Mach-O file \\(built for an Apple platform\\), not an executable for this machine"
        ) { path in
            try Data([0xCF, 0xFA, 0xED, 0xFE] + [UInt8](repeating: 0, count: 60)).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        },
        Row(
            name: "install of a build whose executable is a script",
            setUp: { s in
                try s.copyBuild("v1") { $0["executable"] = "Bad" }
                try s.folder("products")
                try Data("#!/bin/sh\nexit 0\n".utf8).write(to: URL(fileURLWithPath: s.path("products/Bad")))
                chmod(s.path("products/Bad"), 0o755)
                _ = try s.run(["device", "create", "Phone"])
                return ["install", "Phone", "v1", "--products", s.path("products")]
            },
            message:
                ".*/builds/v1/build.json: build v1's executable .*/products/Bad is a script \\(#!\\), not an app build's executable$"
        ),
        executableRow(
            "a truncated ELF binary",
            reason: "is not an executable this machine runs \\(no ELF header: a corrupt or foreign file\\)"
        ) { path in
            try Data([0x7F, 0x45, 0x4C, 0x46, 2, 1]).write(to: URL(fileURLWithPath: path))
            chmod(path, 0o755)
        },
    ]

    // MARK: What --force removes

    @Test("--force over a finished run leaves a user's replay/ and files, and removes the run's own entries")
    func forceKeepsWhatTheRunnerDidNotWrite() throws {
        let sandbox = try Sandbox()
        let out = sandbox.path("out")
        try sandbox.finishedRun("out")
        try sandbox.write("out/replay/my-notes.txt", "mine")
        try sandbox.write("out/notes.txt", "mine too")
        try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: true)
        OutputFolder.release(out)
        #expect(FileManager.default.fileExists(atPath: out + "/replay/my-notes.txt"), "a user's replay/ is not the runner's")
        #expect(FileManager.default.fileExists(atPath: out + "/notes.txt"))
        #expect(!FileManager.default.fileExists(atPath: out + "/paths"), "the earlier run's cells are gone")
    }

    @Test("a finished run's own replay/ (itself a run), archived inputs/ and baseline/ are replaced with the run")
    func runnersOwnEntriesGo() throws {
        let sandbox = try Sandbox()
        let out = sandbox.path("out")
        try sandbox.finishedRun("out")
        try sandbox.finishedRun("out/replay")
        // summary.md's rerun lines write a run of their own inside the run's folder.
        try sandbox.finishedRun("out/rerun-v1-to-v2-upgrade")
        try sandbox.write("out/inputs/builds/v1/build.json", "{}")
        // A FAIL judged against the old build leaves baseline/ beside paths/ (PreExisting).
        try sandbox.write("out/baseline/paths/v1-to-v1/reinstall/status/01-v1-seed.json", "{}")
        // Written after the run finished, they are in no manifest: refused as a person's files...
        #expect(throws: GateError.self) {
            try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: false)
        }
        // ...and the run of a version before manifests (none) has its entries of the runner's shape replaced whole.
        try FileManager.default.removeItem(atPath: out + "/" + ArtifactLayout.manifestFile)
        try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: false)
        OutputFolder.release(out)
        #expect(!FileManager.default.fileExists(atPath: out + "/baseline"), "baseline/ is the runner's")
        #expect(!FileManager.default.fileExists(atPath: out + "/replay"))
        #expect(!FileManager.default.fileExists(atPath: out + "/inputs"))
        #expect(!FileManager.default.fileExists(atPath: out + "/rerun-v1-to-v2-upgrade"), "a rerun's run is the run's own")
    }

    @Test("a rerun-* folder that is not a run is a user's: refused without --force, kept with it")
    func usersRerunFolderStays() throws {
        let sandbox = try Sandbox()
        let out = sandbox.path("out")
        try sandbox.finishedRun("out")
        try sandbox.write("out/rerun-notes/mine.txt", "mine")
        #expect(throws: GateError.self) {
            try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: false)
        }
        try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: true)
        OutputFolder.release(out)
        #expect(FileManager.default.fileExists(atPath: out + "/rerun-notes/mine.txt"))
    }

    @Test("removing an earlier run never follows a link inside it")
    func removalFollowsNoLink() throws {
        let sandbox = try Sandbox()
        let out = sandbox.path("out")
        try sandbox.finishedRun("out")
        try sandbox.write("elsewhere/keep.txt", "mine")
        try FileManager.default.createSymbolicLink(
            atPath: out + "/paths/elsewhere", withDestinationPath: sandbox.path("elsewhere"))
        // The link is in no manifest: a person's, refused; with --force it stays, not followed.
        #expect(throws: GateError.self) {
            try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: false)
        }
        try GateArtifacts.begin(inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out, force: true)
        OutputFolder.release(out)
        #expect(FileManager.default.fileExists(atPath: sandbox.path("elsewhere/keep.txt")))
        #expect(FileManager.default.fileExists(atPath: out + "/paths/elsewhere"))
        // A run without a manifest (an earlier version's) has paths/ removed whole: the link is unlinked, never followed.
        try RunFolders.write(SampleGate.inputs(), at: out + "-legacy")
        try FileManager.default.removeItem(atPath: out + "-legacy/" + ArtifactLayout.manifestFile)
        try FileManager.default.createSymbolicLink(
            atPath: out + "-legacy/paths/elsewhere", withDestinationPath: sandbox.path("elsewhere"))
        try GateArtifacts.begin(
            inputs: SampleGate.inputs(), plan: try SampleGate.inputs().plan(), at: out + "-legacy", force: false)
        OutputFolder.release(out + "-legacy")
        #expect(FileManager.default.fileExists(atPath: sandbox.path("elsewhere/keep.txt")))
        #expect(!FileManager.default.fileExists(atPath: out + "-legacy/paths/elsewhere"))
    }

    @Test("builds lists a manifest's control characters escaped, never raw on the terminal")
    func buildsListingEscapes() throws {
        let sandbox = try Sandbox()
        try sandbox.copyBuild("v1") { $0["marketingVersion"] = "1.0\u{1b}[31mred\nline" }
        let result = try sandbox.run(["builds"])
        #expect(!result.stdout.unicodeScalars.contains("\u{1b}"), "\(result.stdout)")
        #expect(result.stdout.contains("1.0\\u{1b}[31mred\\nline (100)"), "\(result.stdout) \(result.stderr)")
    }

    // MARK: Where a run writes

    @Test("a small gate writes only into --out, its devices root and its own temporary folders, and leaves no temporary folder")
    func writesOnlyItsOwnFiles() throws {
        let sandbox = try Sandbox()
        try sandbox.copyBuild("v1")
        try sandbox.write("home/notes.txt", "mine")
        let shm = Sandbox.entries("/dev/shm")
        let before = try sandbox.listing()
        let result = try sandbox.run(["gate", "--builds", "v1", "--scenarios", "fresh-install", "--out", sandbox.path("out")])
        #expect(result.status == 0, "\(result.stderr)")
        let after = try sandbox.listing()
        let changed = Sandbox.difference(before, after).filter { !$0.hasPrefix("out") }
        #expect(changed.isEmpty, "written outside --out: \(changed)")
        // With TMPDIR set, the run's devices go there, never to /dev/shm (other tests' runs, side by
        // side in this process, may have folders there of their own pids).
        let ours = "upgrade-runner-devices-\(result.pid)-"
        #expect(Sandbox.entries("/dev/shm").subtracting(shm).filter { $0.hasPrefix(ours) }.isEmpty)
        // --out is shared (CI uploads it); the devices the run made are gone with their secrets.
        #expect(try sandbox.mode(of: "out/run.json") == 0o644)
        #expect(try sandbox.mode(of: "out/paths") == 0o755)
    }

    @Test("device create makes ~/.upgrade-runner, devices/ and the device folder 0700, the keychain 0600")
    func devicesArePrivate() throws {
        let sandbox = try Sandbox()
        let result = try sandbox.run(["device", "create", "Phone", "--udid", "PRIVATE-1"], devicesRoot: nil)
        #expect(result.status == 0, "\(result.stderr)")
        for folder in ["home/.upgrade-runner", "home/.upgrade-runner/devices", "home/.upgrade-runner/devices/PRIVATE-1"] {
            #expect(try sandbox.mode(of: folder) == 0o700, "\(folder)")
        }
        #expect(
            try sandbox.mode(of: "home/.upgrade-runner/devices/PRIVATE-1/data/Library/Keychains/keychain-2-debug.db") == 0o600)
    }
}

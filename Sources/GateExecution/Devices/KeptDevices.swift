import FileUtility
import Foundation
import GateModel
import SimDevice
import UpgradeContract

/// `--keep-failed DIR`: the devices of what failed, kept whole under DIR for every device verb
/// (`--devices-root DIR`), with the launch lines that reproduce what failed.
///
/// Kept, for each cell that failed or is unknown (no exploration): the device as the cell left it
/// (`<cell>`), and the device right before the new build's first launch (`<cell>-before`: the old
/// build seeded, a route's hops launched, the new build installed). For each failing or unknown
/// attempt of an exploration: the device as the attempt left it (`<cell>-<attempt>`) and the
/// device it started from (`<cell>-<attempt>-before`: the prepared device, or for a pair the device
/// right after its first crash). `kept.md` lists them, each with the launch lines that, run in order
/// on the `-before` device, make the same launches again (the same arguments, case, shapes, crash
/// point and faults). What the runner does between launches without launching (a lock-state change,
/// a clock move, items it plants, a store it removes) is not a launch line; the scenario's row in
/// docs/gate.md says what it is.
///
/// The folder and everything in it is readable by this user alone (0700): the devices hold the
/// case's secrets in the clear. While the gate runs, every device of the run lives in a working
/// folder inside DIR (so that keeping one is a rename and installed executables stay hard links);
/// it is removed when the run ends.
package final class KeptDevices: @unchecked Sendable {
    package let folder: String
    /// The file that lists the kept devices and their launch lines.
    package static let indexFile = "kept.md"
    private let lock = NSLock()
    private var entries: [Entry] = []

    struct Entry {
        var cell: String
        var attempt: String?
        var device: String
        var before: String?
        var launches: [LaunchRecord]
        /// How many launches of `launches` came before the `before` device's state (not replayed).
        var skipped: Int
        /// For one of the cell's other devices (a restored phone, a second device), its role.
        var role: String? = nil
    }

    /// Prepares `folder` (created 0700, or an empty folder made 0700).
    /// - Throws: the errors of ``check(_:)``, and ``GateError/io(path:doing:cause:)`` when it cannot be created.
    package init(folder: String) throws(GateError) {
        self.folder = folder
        if !(try Self.check(folder)) { try ArtifactFile.createFolder(folder) }
        guard chmod(folder, 0o700) == 0 else {
            throw .io(path: folder, doing: "setting the mode of", cause: FileFailure.posix(errno))
        }
    }

    /// Checks `folder` before anything is written: true when it exists (an empty folder), false when
    /// it does not.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming `--keep-failed` when it is a
    ///   file or a folder that is not empty (the kept devices of another run are never replaced).
    /// `out`: the run's artifacts folder, which the kept devices must be neither in nor around (the
    /// leak scan reads every file under it, and CI uploads it).
    @discardableResult
    package static func check(_ folder: String, out: String? = nil) throws(GateError) -> Bool {
        if let out, ResolvedPath.isSame(folder, orInside: out) || ResolvedPath.isSame(out, orInside: folder) {
            throw .invalidValue(
                field: .named("--keep-failed"), value: folder,
                reason: "is or holds the artifacts folder \(out), or lies inside it (the devices hold secrets; keep them apart)")
        }
        var info = stat()
        guard lstat(folder, &info) == 0 else { return false }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw .invalidValue(field: .named("--keep-failed"), value: folder, reason: "is not a folder")
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard names.isEmpty else {
            throw .invalidValue(
                field: .named("--keep-failed"), value: folder,
                reason: "is not empty (give a new folder: the devices of another run are never replaced)")
        }
        return true
    }

    var set: DeviceSet { DeviceSet(root: folder) }

    /// A device name from the cell and attempt: `v1-to-v2-crash-points-crash-3`.
    static func name(cell: String, attempt: String?) -> String {
        let raw = ([cell] + (attempt.map { [$0] } ?? [])).joined(separator: "-")
        return String(raw.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "-" })
    }

    /// A copy of `source` in the kept folder, named `name` (a `-before` device). Nil when it cannot be
    /// made: the end device is still kept.
    func copy(_ source: Device, as name: String) -> Device? {
        try? set.clone(source, name: name)
    }

    /// Removes a `-before` copy that turned out not to be needed (its cell passed).
    func discard(_ device: Device) {
        try? FileManager.default.removeItem(atPath: device.layout.directory)
    }

    /// Keeps `device` (its session is given back) with its `before` copy and the launches made
    /// since that copy's state (`launches`, of which the first `skipped` came before it). `role`: one
    /// of the cell's other devices (``ScenarioDevice/accompany(_:role:kept:cell:)``), kept as
    /// `<cell>-<role>`.
    func keep(
        _ device: ScenarioDevice, cell: String, attempt: String?, before: Device?, launches: [LaunchRecord], skipped: Int = 0,
        role: String? = nil
    ) {
        let name = Self.name(cell: cell, attempt: attempt) + (role.map { "-" + $0 } ?? "")
        guard (try? device.session.move(into: set, name: name)) != nil else { return }
        lock.withLock {
            entries.append(
                Entry(
                    cell: cell, attempt: attempt, device: name, before: before?.record.name, launches: launches, skipped: skipped,
                    role: role))
        }
    }

    /// What each of a cell's other devices is, for kept.md.
    static let roles = ["restored": "the new phone the backup was restored onto", "B": "the user's second device"]

    /// How many devices were kept (not counting their `-before` copies).
    var count: Int { lock.withLock { entries.count } }

    /// Writes `kept.md`, the kept devices in name order, each with the lines that reproduce its launches.
    func writeIndex() {
        let sorted = lock.withLock { entries }.sorted { ($0.device, $0.attempt ?? "") < ($1.device, $1.attempt ?? "") }
        guard !sorted.isEmpty else { return }
        var lines = [
            "# Devices kept by upgrade-runner --keep-failed", "",
            "Every device verb takes them with `--devices-root \(ShellWord.quoted(folder))`. They hold the case's secrets:",
            "keep this folder to yourself, and delete it when done.", "",
        ]
        for entry in sorted {
            lines.append(
                "## `\(entry.cell)`" + (entry.attempt.map { ", attempt `\($0)`" } ?? "")
                    + (entry.role.map { ", device `\($0)`" } ?? ""))
            lines.append("")
            if let role = entry.role {
                lines.append(
                    "- `\(entry.device)`: the cell's device `\(role)` (\(Self.roles[role] ?? "another device of the cell")) as it was left; "
                        + "between its launches the runner installs, restores or syncs as docs/gate.md's row for the scenario says"
                )
            } else {
                lines.append("- `\(entry.device)`: the device as it was left")
            }
            if let before = entry.before {
                lines.append("- `\(before)`: the device before the launches below (run them on it, in order, to make them again)")
            }
            lines.append("")
            lines.append("```sh")
            lines.append("upgrade-runner keychain --devices-root \(ShellWord.quoted(folder)) \(entry.device) dump")
            let device = entry.before ?? entry.device
            // A schedule's two launches are one line: the app's, with the extension beside it.
            for launch in entry.launches.dropFirst(entry.skipped) where launch.schedule == nil || launch.extensionName == nil {
                lines.append(line(launch, device: device, entry: entry))
            }
            lines.append("```")
            lines.append("")
        }
        let data = Data(lines.joined(separator: "\n").utf8)
        _ = try? ArtifactFile.write(data, to: folder + "/" + Self.indexFile)
        chmod(folder + "/" + Self.indexFile, 0o600)
    }

    /// `upgrade-runner launch --devices-root DIR DEVICE BUNDLE [--extension NAME | --beside NAME --schedule ID] [--crash-after K [--power-loss]]
    /// [--fault-plan F] -- ARGS`.
    private func line(_ launch: LaunchRecord, device: String, entry: Entry) -> String {
        var words = ["upgrade-runner", "launch", "--devices-root", folder, device, launch.bundleID]
        if let name = launch.extensionName { words += ["--extension", name] }
        if let schedule = launch.schedule { words += ["--beside", schedule.beside, "--schedule", schedule.id] }
        if let k = launch.faultPlan.crashAfterMutation {
            words += ["--crash-after", "\(k)"]
            if launch.faultPlan.powerLoss { words.append("--power-loss") }
        }
        if !launch.faultPlan.faults.isEmpty {
            let plan = folder + "/" + entry.device + "-launch-\(launch.index).faults.json"
            var faults = launch.faultPlan
            faults.crashAfterMutation = nil
            faults.powerLoss = false
            if (try? ArtifactFile.write(GateJSON.pretty(faults), to: plan)) != nil { chmod(plan, 0o600) }
            words += ["--fault-plan", plan]
        }
        words.append("--")
        words += launch.arguments
        return words.map(ShellWord.quoted).joined(separator: " ") + "   # \(launch.stem)"
    }
}

import Foundation
import GateExecution
import GateModel
import SimDevice

enum DeviceList {
    static let spec = CommandSpec(
        ["device", "list"], summary: "List the devices, their state and their installed apps.",
        options: [CommonOptions.json, CommonOptions.devicesRoot],
        discussion:
            "Lists every device under the devices root. A device folder that cannot be read is reported\non standard error and makes the exit code 2; the others are still listed."
    )

    struct Entry: Encodable {
        var udid: String
        var name: String
        var deviceType: String
        var runtime: String
        var state: String
        var lockState: String
        var clock: String
        var path: String
        var apps: [App]
    }

    struct App: Encodable {
        var bundleID: String
        var buildID: String
        var marketingVersion: String
        var buildNumber: String
    }

    static func run(_ options: DeviceListing, _ invocation: Invocation) throws -> Int32 {
        let (devices, problems) = options.devices.deviceSet.list()
        let entries = devices.map { device in
            Entry(
                udid: device.udid, name: device.record.name, deviceType: device.record.deviceType,
                runtime: device.record.runtime.description, state: device.record.state.rawValue,
                lockState: device.record.lockState.rawValue, clock: ClockText.format(device.record.clock),
                path: device.layout.directory,
                apps: device.installedApps().map {
                    App(
                        bundleID: $0.bundleID, buildID: $0.record.buildID,
                        marketingVersion: $0.record.marketingVersion, buildNumber: $0.record.buildNumber)
                })
        }
        if options.json {
            try invocation.printJSON(entries)
        } else if entries.isEmpty {
            invocation.console.output("no devices in \(options.devices.deviceSet.root)")
        } else {
            var rows = [["UDID", "NAME", "RUNTIME", "STATE", "LOCK", "CLOCK", "APPS"]]
            for entry in entries {
                let apps = entry.apps.map { "\($0.bundleID) (\($0.buildID))" }.joined(separator: ", ")
                rows.append([
                    entry.udid, entry.name, entry.runtime, entry.state, entry.lockState, entry.clock,
                    apps.isEmpty ? "-" : apps,
                ])
            }
            invocation.console.output(TextTable.render(rows))
        }
        return ExitStatus.report(problems: problems, to: invocation.console)
    }
}

/// Columns padded to their widest cell; the last column is not padded.
enum TextTable {
    static func render(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

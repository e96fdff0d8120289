import Foundation
import GateExecution
import GateModel
import SimDevice
import SimRuntime
import SimSecurity

enum KeychainDumpCommand {
    static let actionArgument = ArgumentSpec("ACTION", "dump (the only action).")
    static let spec = CommandSpec(
        ["keychain"], summary: "Dump a device's keychain: attributes and keyed digests, never values.",
        arguments: [CommonOptions.device, actionArgument],
        options: [CommonOptions.json, CommonOptions.devicesRoot],
        discussion: """
            Lists every item on the device, whatever its access group or protection class: class, access group,
            accessibility, service, account, synchronizable and the other attributes. A value is shown only as
            hmac-sha256 under a random key kept in the device folder: two dumps of one device can be compared, and a
            dump reveals no secret (nor an unkeyed hash of one).
            """)

    struct Item: Encodable {
        var itemClass: String
        var accessGroup: String
        var accessible: String
        var service: String?
        var account: String?
        var synchronizable: Bool
        var attributes: [String: String]
        var dataDigest: String?
    }

    /// Attributes that have columns of their own.
    static let columnKeys: Set<String> = ["class", "agrp", "pdmn", "svce", "acct", "sync"]
    /// How a digest is shown: the device's redaction, named by its algorithm.
    static let digestPrefix = "hmac-sha256:"

    static func run(_ options: DeviceListing, _ invocation: Invocation) throws -> Int32 {
        let action = invocation.argument(actionArgument)
        guard action == "dump" else {
            throw UsageError.invalidValue(action, for: "keychain ACTION", reason: "is not a keychain action (only \"dump\")")
        }
        let device = try options.devices.device(invocation)
        let redaction = try DeviceRedaction(device)
        let items = try device.keychainItems().map { record in
            Item(
                itemClass: record.itemClass, accessGroup: record.accessGroup, accessible: record.accessible,
                service: record.service, account: record.account, synchronizable: record.synchronizable,
                attributes: redaction.attributes(of: record, leaving: columnKeys, prefix: digestPrefix),
                dataDigest: record.data.map { digestPrefix + redaction.digest($0) })
        }.sorted {
            ($0.itemClass, $0.accessGroup, $0.service ?? "", $0.account ?? "", $0.dataDigest ?? "")
                < ($1.itemClass, $1.accessGroup, $1.service ?? "", $1.account ?? "", $1.dataDigest ?? "")
        }
        if options.json {
            try invocation.printJSON(items)
            return ExitStatus.pass
        }
        if items.isEmpty {
            invocation.console.output("\(device.udid): keychain is empty")
            return ExitStatus.pass
        }
        var rows = [["CLASS", "GROUP", "ACCESSIBLE", "SERVICE", "ACCOUNT", "SYNC", "DATA", "ATTRIBUTES"]]
        for item in items {
            let attributes = item.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            rows.append([
                item.itemClass, item.accessGroup, item.accessible, item.service ?? "-", item.account ?? "-",
                item.synchronizable ? "1" : "0", item.dataDigest.map { String($0.prefix(28)) } ?? "-",
                attributes.isEmpty ? "-" : attributes,
            ])
        }
        invocation.console.output(TextTable.render(rows))
        return ExitStatus.pass
    }
}

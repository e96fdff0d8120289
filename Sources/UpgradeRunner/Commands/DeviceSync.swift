import GateExecution
import GateModel
import SimDevice

enum DeviceSync {
    static let spec = CommandSpec(
        ["device", "sync"], summary: "Sync the keychain with another device of the same user, as iCloud Keychain does.",
        arguments: [CommonOptions.device], options: [Options.with, CommonOptions.devicesRoot],
        discussion: """
            DEVICE and OTHER are two devices of one user (saying so makes them one user's): every synchronizable keychain
            item that travels goes both ways with its adds, changes and deletes since the pair's last sync (a delete
            removes it on the other device too). ThisDeviceOnly and local items, apps and files stay; an item changed on
            both: the later modification wins, at equal dates DEVICE's. Prints what arrived on each (counts only).
            """)

    /// The options of `device sync`, read once.
    struct Options {
        static let with = OptionSpec(
            "--with", value: "OTHER", "The user's other device, a UDID or name (required; not DEVICE itself).")

        var other: String?
        var devices: DevicesRoot

        init(_ options: OptionValues) {
            other = options.value(Self.with)
            devices = DevicesRoot(options)
        }
    }

    static func run(_ options: Options, _ invocation: Invocation) throws -> Int32 {
        guard let name = options.other else { throw UsageError.missingOption("--with OTHER", command: spec.name) }
        let device = try options.devices.device(invocation)
        let other = try options.devices.deviceSet.device(name)
        guard other.udid != device.udid else {
            throw DeviceError.syncRefused(
                udid: device.udid, reason: "--with names the same device; a device syncs with another device of its user")
        }
        let session = try device.acquire()
        let otherSession = try other.acquire()
        let sync = try session.syncKeychain(with: otherSession)
        let outcome = sync.outcome
        for (udid, changes) in [(session.udid, outcome.here), (otherSession.udid, outcome.there)] {
            invocation.console.output(
                "\(udid): \(changes.added) added, \(changes.updated) updated, \(changes.deleted) deleted")
        }
        var notes = ["\(outcome.synced) synchronizable item(s) in common"]
        if sync.first { notes.append("their first sync (a union: no delete travels)") }
        if outcome.conflicts > 0 { notes.append("\(outcome.conflicts) changed on both (the later modification won)") }
        if outcome.keptLocal > 0 { notes.append("\(outcome.keptLocal) kept out by a ThisDeviceOnly item of the same key") }
        if sync.passwordsOnly { notes.append("passwords only (iOS before 14)") }
        invocation.console.output("synced \(session.udid) with \(otherSession.udid): " + notes.joined(separator: "; "))
        return ExitStatus.pass
    }
}

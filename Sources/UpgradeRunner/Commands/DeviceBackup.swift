import GateExecution
import GateModel
import SimDevice

enum DeviceBackup {
    static let folderArgument = ArgumentSpec("FOLDER", "The backup's folder: a new one (it must not exist).")
    static let spec = CommandSpec(
        ["device", "backup"], summary: "Back a device up into a new folder, as an encrypted iOS backup.",
        arguments: [CommonOptions.device, folderArgument], options: [CommonOptions.devicesRoot],
        discussion: """
            What travels, as iOS backs an app up for another device: keychain items of every class but the
            ThisDeviceOnly ones (synchronizable ones too); each app's data container but Library/Caches, tmp and
            files marked excluded from backup; app group containers likewise. The folder holds backup.json (names
            and counts, never a value), keychain.db, apps/<bundle id>/ and groups/<group id>/. It holds secrets:
            folders 0700, files 0600. Nothing is left behind when the backup fails.
            """)

    static func run(_ devices: DevicesRoot, _ invocation: Invocation) throws -> Int32 {
        let session = try devices.session(invocation)
        let folder = invocation.absolute(invocation.argument(folderArgument))
        let manifest = try session.backup(to: folder)
        invocation.console.output(
            "\(session.udid): backed up to \(folder): \(manifest.keychainItems) keychain item(s), "
                + "\(manifest.keychainItemsLeftBehind) left behind (ThisDeviceOnly); \(manifest.containers.count) container(s), "
                + "\(manifest.leftOut.count) path(s) left out")
        return ExitStatus.pass
    }
}

enum DeviceRestore {
    static let folderArgument = ArgumentSpec("FOLDER", "A folder that `device backup` wrote.")
    static let spec = CommandSpec(
        ["device", "restore"], summary: "Restore a backup onto a new or erased device.",
        arguments: [CommonOptions.device, folderArgument], options: [CommonOptions.devicesRoot],
        discussion: """
            The device must be empty (no app, container or keychain item) and not the one the backup was made of:
            a restored device is another device, with its own UDID and digest key. Containers come back under new
            UUIDs with their files' data protection classes, and the backup's keychain items are added. No app is
            installed: install the release the App Store would bring; it finds its data container.
            """)

    static func run(_ devices: DevicesRoot, _ invocation: Invocation) throws -> Int32 {
        let session = try devices.session(invocation)
        let folder = invocation.absolute(invocation.argument(folderArgument))
        let manifest = try session.restore(from: folder)
        invocation.console.output(
            "\(session.udid): restored \(manifest.containers.count) container(s) and \(manifest.keychainItems) keychain item(s) "
                + "from the backup of \(manifest.sourceUDID)")
        return ExitStatus.pass
    }
}

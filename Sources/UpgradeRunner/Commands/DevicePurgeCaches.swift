import GateExecution
import GateModel
import SimDevice

enum DevicePurgeCaches {
    static let spec = CommandSpec(
        ["device", "purge-caches"], summary: "Purge caches and tmp, as iOS does under storage pressure.",
        arguments: [CommonOptions.device], options: [CommonOptions.devicesRoot],
        discussion: """
            What iOS removes while an app is not running, when the device runs low on storage: the contents of every
            app's Library/Caches and tmp, and of every app group container's Library/Caches. The folders stay; the
            keychain, Documents, Library/Application Support and Library/Preferences are untouched. No app of the
            device runs meanwhile (a launch holds the device). Prints each emptied folder and what went (names and
            counts only).
            """)

    static func run(_ devices: DevicesRoot, _ invocation: Invocation) throws -> Int32 {
        let session = try devices.session(invocation)
        let purge = try session.purgeCaches()
        for folder in purge.emptied where folder.files + folder.folders > 0 {
            invocation.console.output(
                "\(folder.identifier) (\(folder.kind)): \(folder.folder): \(folder.files) file(s), \(folder.folders) folder(s)")
        }
        invocation.console.output(
            "\(session.udid): purged \(purge.files) file(s) from \(purge.emptied.count) folder(s) (Library/Caches, tmp)")
        return ExitStatus.pass
    }
}

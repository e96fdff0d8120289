import Foundation

extension DeviceSet {
    /// Copies `source` to a new device with its own UDID and name: the same record (power, lock
    /// state, clock, runtime), installed apps, containers, keychain and digest key.
    ///
    /// For runs that start many devices from one prepared state (crash-point exploration): a copy
    /// costs a few file copies where preparing again costs installs and app launches. The source
    /// must not be in use by a launch while it is copied (its keychain is read file by file).
    /// Installed executables are hard-linked (no executable is written, so a concurrent spawn never
    /// finds one busy), other files copied; the source's lock file and logs are not.
    public func clone(_ source: Device, name: String, udid: String = UUID().uuidString) throws(DeviceError) -> Device {
        try assemble(udid: udid) { staging throws in
            try Self.copyTree(from: source.layout.directory, to: staging.directory)
            var record = source.record
            record.udid = udid
            record.name = name
            try JSONFile.write(record, to: staging.recordPath)
        }
    }

    private static func copyTree(from source: String, to destination: String) throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: destination, withIntermediateDirectories: true)
        guard let walker = manager.enumerator(atPath: source) else {
            throw DeviceError.fileSystem(source, reason: "cannot list the device")
        }
        while let relative = walker.nextObject() as? String {
            if relative == "device.lock" || relative.hasPrefix("logs/") { continue }
            let from = source + "/" + relative, to = destination + "/" + relative
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: from, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                try manager.createDirectory(atPath: to, withIntermediateDirectories: true)
            } else if relative.contains("/Containers/Bundle/"), link(from, to) == 0 {
                continue
            } else {
                try manager.copyItem(atPath: from, toPath: to)
            }
        }
    }
}

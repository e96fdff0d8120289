import FileUtility
import Foundation
import SimRuntime
import SimSupervision

extension DeviceSession {
    /// Installs `build`. Over an installed app with the same bundle id this is an upgrade in place
    /// (or a downgrade or reinstall): the data container keeps its files but moves to a new path
    /// (``ContainerDirectory/move(_:sequence:)``), as do the app's group containers, and the bundle is
    /// replaced under a new bundle UUID. App group containers the entitlements name are created when
    /// missing.
    ///
    /// The new bundle container is assembled in the staging folder and moved into place with one
    /// rename before the old one is removed, so an interrupted install leaves the old app or the new one.
    @discardableResult
    public func install(_ build: Build) throws(DeviceError) -> InstalledApp {
        let manifest = build.manifest
        let previous = installedApps().first { $0.bundleID == manifest.bundleID }
        let kind: InstallKind
        if let previous {
            switch BuildManifest.compareBuildNumbers(manifest.buildNumber, previous.record.buildNumber) {
            case .orderedDescending: kind = .upgrade
            case .orderedAscending: kind = .downgrade
            case .orderedSame: kind = .reinstall
            }
        } else {
            kind = .install
        }

        // What the session keeps of the containers goes before they change, and again after.
        containersChanged()
        defer { containersChanged() }
        let uuid = UUID().uuidString
        let staged = layout.stagingDirectory + "/" + uuid
        let container = try ContainerDirectory.create(.bundle, identifier: manifest.bundleID, uuid: uuid, at: staged)
        // Gone already once the bundle is moved into place; what an install that failed left.
        defer { _ = TreeRemoval.remove(staged) }
        let appFolder = staged + "/" + manifest.executable + ".app"
        let executable = appFolder + "/" + manifest.executable
        let entitlements = appFolder + "/" + manifest.entitlements
        do {
            if mkdir(appFolder, 0o777) != 0 {
                try FileManager.default.createDirectory(atPath: appFolder, withIntermediateDirectories: true)
            }
            // Each file's bytes and permission bits, as FileManager's copyItem (which looks at the
            // file and its folder a few more times) copied them.
            for (source, copy) in [
                (build.folder + "/build.json", appFolder + "/build.json"), (build.entitlementsPath, entitlements),
            ]
            where FileCopy.copy(from: source, to: copy) == nil {
                throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno))
            }
            let failure = AtomicFile.writeInPlace(try Self.infoPlist(manifest), to: appFolder + "/" + Self.infoPlistName)
            if failure != 0 { throw NSError(domain: NSPOSIXErrorDomain, code: Int(failure)) }
            // A hard link installs the executable without writing it (no descriptor open for writing
            // that a concurrent spawn could inherit, no copy); across file systems it is copied.
            if link(build.executablePath, executable) != 0 {
                try FileManager.default.copyItem(atPath: build.executablePath, toPath: executable)
            }
        } catch {
            throw .fileSystem(appFolder, reason: "cannot copy build \(manifest.id) (\(error.localizedDescription))")
        }
        let extensionRecords = try installExtensions(build, appFolder: appFolder)
        // The record pins what is installed: the digests of the files copied, taken from the
        // sources (whose digests the process remembers, so a gate's hundreds of installs of the same
        // build hash each file once) and re-checked by size against the copies.
        guard let executableHash = SHA256.hexOfFile(atPath: build.executablePath),
            let entitlementsHash = SHA256.hexOfFile(atPath: build.entitlementsPath),
            Self.sameSize(build.executablePath, executable), Self.sameSize(build.entitlementsPath, entitlements)
        else { throw .fileSystem(appFolder, reason: "cannot read the installed copy") }
        let record = InstallRecord(
            bundleID: manifest.bundleID, buildID: manifest.id, marketingVersion: manifest.marketingVersion,
            buildNumber: manifest.buildNumber, schemaVersion: manifest.schemaVersion,
            executable: manifest.executable, executableSHA256: executableHash,
            entitlements: manifest.entitlements, entitlementsSHA256: entitlementsHash,
            identity: build.identity, kind: kind,
            replaced: previous.map {
                ReplacedBuild(
                    buildID: $0.record.buildID, marketingVersion: $0.record.marketingVersion,
                    buildNumber: $0.record.buildNumber)
            },
            installedAt: self.record.clock, sequence: (previous?.record.sequence ?? 0) + 1,
            extensions: extensionRecords)
        try JSONFile.write(record, to: staged + "/" + InstalledApp.recordName)

        // An install over the app moves its data container and its groups' containers to new
        // paths, as iOS may: what the app keeps stays, a path it stored points nowhere.
        if let data = device.dataContainer(manifest.bundleID) {
            // (A container a restore brought back has its new path already: the app is installed into it.)
            if previous != nil { _ = try ContainerDirectory.move(data, sequence: record.sequence) }
        } else {
            let data = try ContainerDirectory.create(
                .data, identifier: manifest.bundleID,
                at: layout.containersDirectory(.data) + "/" + UUID().uuidString)
            if let protection = build.dataProtection { try Self.classify(data, protection) }
        }
        // Each extension has a data container of its own, made with the app's as iOS makes it at
        // install, and moved with it on an update.
        for item in build.extensions {
            if let container = device.dataContainer(item.bundleID) {
                if previous != nil { _ = try ContainerDirectory.move(container, sequence: record.sequence) }
            } else {
                _ = try ContainerDirectory.create(
                    .data, identifier: item.bundleID, at: layout.containersDirectory(.data) + "/" + UUID().uuidString)
            }
        }
        let groups = build.identity.applicationGroups + build.extensions.flatMap(\.identity.applicationGroups)
        for group in Self.unique(groups) {
            if let container = device.groupContainer(group) {
                if previous != nil { _ = try ContainerDirectory.move(container, sequence: record.sequence) }
            } else {
                _ = try ContainerDirectory.create(
                    .appGroup, identifier: group,
                    at: layout.containersDirectory(.appGroup) + "/" + UUID().uuidString)
            }
        }

        let final = layout.containersDirectory(.bundle) + "/" + uuid
        guard rename(staged, final) == 0 else {
            throw .fileSystem(final, reason: "cannot move the new bundle into place (\(String(cString: strerror(errno))))")
        }
        if let previous {
            _ = TreeRemoval.remove(previous.container.path)
            // An extension the new build no longer ships goes with its data container, as iOS removes it.
            let kept = Set(build.extensions.map(\.bundleID))
            for item in previous.extensions where !kept.contains(item.bundleID) {
                for container in ContainerDirectory.find(.data, identifier: item.bundleID, in: layout) {
                    try? FileManager.default.removeItem(atPath: container.path)
                }
            }
        }
        HistoryEvent.append(
            HistoryEvent(
                event: kind.rawValue, bundleID: manifest.bundleID, buildID: manifest.id,
                buildNumber: manifest.buildNumber, clock: self.record.clock), to: layout)
        var installed = container
        installed.path = final
        return InstalledApp(container: installed, record: record)
    }

    /// Copies each extension into `<appFolder>/PlugIns/<name>.appex/` (its executable, its own
    /// entitlements, the build's build.json, whose `keeps` its harness reads as the app's does, and an
    /// Info.plist naming its bundle id), and returns their records; nil for a build without extensions.
    private func installExtensions(_ build: Build, appFolder: String) throws(DeviceError) -> [InstalledExtensionRecord]? {
        guard build.manifest.extensions != nil else { return nil }
        var records: [InstalledExtensionRecord] = []
        for item in build.extensions {
            let folder = appFolder + "/PlugIns/" + item.name + ".appex"
            let executable = folder + "/" + item.declaration.executable
            let entitlements = folder + "/" + item.declaration.entitlements
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: build.folder + "/build.json", toPath: folder + "/build.json")
                try FileManager.default.copyItem(atPath: item.entitlementsPath, toPath: entitlements)
                let info = try Self.extensionInfoPlist(build.manifest, item)
                let failure = AtomicFile.writeInPlace(info, to: folder + "/" + Self.infoPlistName)
                if failure != 0 { throw NSError(domain: NSPOSIXErrorDomain, code: Int(failure)) }
                if link(item.executablePath, executable) != 0 {
                    try FileManager.default.copyItem(atPath: item.executablePath, toPath: executable)
                }
            } catch {
                throw .fileSystem(
                    folder,
                    reason: "cannot copy extension \(item.name) of build \(build.manifest.id) (\(error.localizedDescription))")
            }
            guard let executableHash = SHA256.hexOfFile(atPath: item.executablePath),
                let entitlementsHash = SHA256.hexOfFile(atPath: item.entitlementsPath),
                Self.sameSize(item.executablePath, executable), Self.sameSize(item.entitlementsPath, entitlements)
            else { throw .fileSystem(folder, reason: "cannot read the installed copy") }
            records.append(
                InstalledExtensionRecord(
                    name: item.name, kind: item.declaration.kind, bundleID: item.bundleID,
                    executable: item.declaration.executable, executableSHA256: executableHash,
                    entitlements: item.declaration.entitlements, entitlementsSHA256: entitlementsHash,
                    identity: item.identity))
        }
        return records
    }

    /// An extension's Info.plist: its bundle id and executable, the app's versions, and the
    /// extension point its kind is (`NSExtensionPointIdentifier`), as an `.appex` carries it.
    static func extensionInfoPlist(_ manifest: BuildManifest, _ item: ExtensionBuild) throws -> Data {
        let points = [
            "notification-service": "com.apple.usernotifications.service", "widget": "com.apple.widgetkit-extension",
            "share": "com.apple.share-services", "background-task": "com.apple.background-tasks",
        ]
        let info: [String: Any] = [
            "CFBundleIdentifier": item.bundleID, "CFBundleExecutable": item.declaration.executable,
            "CFBundleShortVersionString": manifest.marketingVersion, "CFBundleVersion": manifest.buildNumber,
            "CFBundlePackageType": "XPC!",
            "NSExtension": ["NSExtensionPointIdentifier": points[item.declaration.kind] ?? item.declaration.kind],
        ]
        return try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
    }

    private static func unique(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }

    /// Gives a new data container and its standard folders the entitlement's class, which every
    /// file and folder made in them then takes. As on iOS, only a container's creation reads the
    /// entitlement: an upgrade in place keeps the container's class ("only applied when your app
    /// container is created", Apple DTS, developer.apple.com/forums/thread/18118).
    private static func classify(_ container: Container, _ protection: FileProtection) throws(DeviceError) {
        for folder in ["", "Library"] + AppContainers.dataFolders {
            let path = container.path + (folder.isEmpty ? "" : "/" + folder)
            let failure = FileProtection.set(protection, atPath: path)
            guard failure == 0 else {
                throw .fileSystem(
                    path,
                    reason:
                        "cannot keep its data protection class (\(FileFailure.posix(failure))); the file system needs user extended attributes"
                )
            }
        }
    }

    /// The bundle's Info.plist, beside the executable where corelibs Foundation's `Bundle.main`
    /// finds it: `Bundle.main.bundleIdentifier` and the version keys answer as on iOS.
    static let infoPlistName = "Info.plist"

    static func infoPlist(_ manifest: BuildManifest) throws -> Data {
        let key = [manifest.bundleID, manifest.executable, manifest.marketingVersion, manifest.buildNumber]
        if let known = infoPlists.withLock({ $0[key] }) { return known }
        let info: [String: Any] = [
            "CFBundleIdentifier": manifest.bundleID, "CFBundleExecutable": manifest.executable,
            "CFBundleShortVersionString": manifest.marketingVersion, "CFBundleVersion": manifest.buildNumber,
            "CFBundlePackageType": "APPL",
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
        infoPlists.withLock { $0[key] = data }
        return data
    }

    /// Each build's Info.plist, made once per process: a gate installs the same few builds hundreds of times.
    private static let infoPlists = Memo<[String], Data>()

    private static func sameSize(_ a: String, _ b: String) -> Bool {
        var first = stat(), second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_size == second.st_size
    }

    /// Uninstalls the app: its bundle and data containers go, with its extensions' data containers;
    /// its keychain items and app group containers stay, as on iOS.
    public func uninstall(_ bundleID: String) throws(DeviceError) {
        let bundles = ContainerDirectory.find(.bundle, identifier: bundleID, in: layout)
        guard !bundles.isEmpty else { throw .notInstalled(bundleID: bundleID, udid: udid) }
        // The extensions of every bundle container of the app (an interrupted install may leave two).
        let extensionIDs = Set(bundles.compactMap { try? InstalledApp(container: $0) }.flatMap { $0.extensions.map(\.bundleID) })
        containersChanged()
        defer { containersChanged() }
        let extensionData = extensionIDs.sorted().flatMap { ContainerDirectory.find(.data, identifier: $0, in: layout) }
        for container in bundles + ContainerDirectory.find(.data, identifier: bundleID, in: layout) + extensionData {
            do {
                try FileManager.default.removeItem(atPath: container.path)
            } catch {
                throw .fileSystem(container.path, reason: "cannot be removed (\(error.localizedDescription))")
            }
        }
        HistoryEvent.append(HistoryEvent(event: "uninstall", bundleID: bundleID, clock: record.clock), to: layout)
    }
}

extension InstalledApp {
    init(container: Container, record: InstallRecord) {
        self.container = container
        self.record = record
    }
}

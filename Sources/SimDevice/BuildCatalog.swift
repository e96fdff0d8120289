import Foundation
import SimRuntime
import SimSupervision

/// A build ready to install: its manifest, its entitlements, and its executable located.
public struct Build: Sendable, Equatable {
    public var manifest: BuildManifest
    public var folder: String
    public var entitlementsPath: String
    /// The app's identity from its entitlements (never from the app itself).
    public var identity: AppIdentity
    public var executablePath: String
    /// The class a new data container of the build takes (`com.apple.developer.default-data-protection`);
    /// nil when the entitlements leave iOS's default.
    public var dataProtection: FileProtection?
    /// The build's app extensions (build.json's `extensions`), each located; empty for a build without.
    public var extensions: [ExtensionBuild] = []
}

/// An app extension of a build, ready to install with the app: its declaration, its bundle id, its
/// own entitlements and identity, and its executable located.
public struct ExtensionBuild: Sendable, Equatable {
    public var declaration: BuildExtension
    /// `<app bundle id>.<name>`.
    public var bundleID: String
    public var entitlementsPath: String
    /// The extension's identity from its own entitlements: the keychain access groups and app groups it holds.
    public var identity: AppIdentity
    public var executablePath: String
    public var name: String { declaration.name }
}

/// The archived builds: `<folder>/<id>/build.json` plus an entitlements file each, with executables
/// in a products folder (`.build/debug` unless told otherwise). Known-bad builds live one level
/// down, in `<folder>/mutants/<id>/`, and resolve by their plain id too (a real build's folder wins).
public struct BuildCatalog: Sendable {
    public static let productsEnvironmentKey = "UPGRADE_RUNNER_PRODUCTS"
    /// The sub-folder of the builds folder that holds the known-bad builds.
    public static let mutantsFolderName = "mutants"

    public var folder: String
    public var productsFolder: String
    /// Build id to an executable that stands in for the products folder's: an archived run's own
    /// copy, content-addressed, so that it replays with no products folder at all.
    public var executables: [String: String]

    /// Whether `path`, its links resolved, is inside one of `folders` (their links resolved too).
    /// Through a link or `..`, a file a manifest names must stay inside the builds folder or its own
    /// build's folder (which may itself be a link to a checkout): a link out of them would make the
    /// gate judge a file nobody reviews with the build.
    /// - Throws: ``DeviceError/malformedFile(_:reason:)`` naming the file and what named it.
    private func requireInside(_ path: String, buildFolder: String, namedBy: String) throws(DeviceError) {
        let buildsFolder = (buildFolder as NSString).deletingLastPathComponent
        guard Self.isInside(path, anyOf: [folder, buildsFolder, buildFolder]) else {
            throw .malformedFile(
                path,
                reason:
                    "is outside the builds folder \(buildsFolder) (a link or path out of it, named by \(namedBy)); copy the file into the build's folder"
            )
        }
    }

    static func isInside(_ path: String, anyOf folders: [String]) -> Bool {
        func real(_ path: String) -> String? {
            guard let resolved = realpath(path, nil) else { return nil }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        guard let file = real(path) else { return false }
        return folders.compactMap(real).contains { file.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    public init(folder: String, productsFolder: String, executables: [String: String] = [:]) {
        self.folder = folder
        self.productsFolder = productsFolder
        self.executables = executables
    }

    /// The build with this id, or the build in this folder when `idOrPath` names one.
    /// - Parameter requiringExecutable: false to return a build whose products-folder executable is
    ///   not built (its `executablePath` names where it would be), as `builds` lists it.
    /// - Throws: a ``DeviceError`` naming the manifest and field, the entitlements file, or the
    ///   missing executable.
    public func build(_ idOrPath: String, requiringExecutable: Bool = true) throws(DeviceError) -> Build {
        let buildFolder: String
        if idOrPath.contains("/") {
            buildFolder = idOrPath.hasSuffix("/") ? String(idOrPath.dropLast()) : idOrPath
        } else if !FileManager.default.fileExists(atPath: folder + "/" + idOrPath),
            FileManager.default.fileExists(atPath: mutantsFolder + "/" + idOrPath + "/" + BuildManifest.fileName)
        {
            buildFolder = mutantsFolder + "/" + idOrPath
        } else {
            buildFolder = folder + "/" + idOrPath
        }
        let manifestPath = buildFolder + "/" + BuildManifest.fileName
        guard FileManager.default.fileExists(atPath: manifestPath) else {
            if FileManager.default.fileExists(atPath: buildFolder) {
                throw .missingFile(manifestPath, what: "build manifest")
            }
            throw .unknownBuild(idOrPath, buildsFolder: folder)
        }
        // Bounded before it is read: a 30 MB build.json is not a manifest.
        var info = stat()
        if stat(manifestPath, &info) == 0, let reason = BuildManifest.fileProblem(size: Int(info.st_size)) {
            throw .malformedFile(manifestPath, reason: reason)
        }
        let manifest = try JSONFile.read(BuildManifest.self, from: manifestPath, what: "build manifest")
        if let data = FileManager.default.contents(atPath: manifestPath) {
            if let key = DuplicateKeys.first(in: data) {
                throw .malformedFile(manifestPath, reason: DuplicateKeys.reason(key))
            }
            if let reason = BuildManifest.unknownFieldProblem(in: data) { throw .malformedFile(manifestPath, reason: reason) }
        }
        if let reason = manifest.problem(folderName: (buildFolder as NSString).lastPathComponent) ?? manifest.limitsProblem() {
            throw .malformedFile(manifestPath, reason: reason)
        }
        let entitlementsPath = buildFolder + "/" + manifest.entitlements
        guard FileManager.default.fileExists(atPath: entitlementsPath) else {
            throw .missingFile(entitlementsPath, what: "entitlements file named by \(manifestPath)")
        }
        try requireInside(entitlementsPath, buildFolder: buildFolder, namedBy: manifestPath)
        let entitlements = try BuildEntitlements(
            folder: buildFolder, bundleID: manifest.bundleID, entitlementsPath: entitlementsPath)
        let identity = entitlements.identity
        if let appID = identity.applicationIdentifier, !appID.hasSuffix("." + manifest.bundleID), !appID.hasSuffix(".*") {
            throw .malformedFile(
                entitlementsPath,
                reason:
                    "\"application-identifier\" \(appID) does not name bundle id \(manifest.bundleID) of \(manifestPath)")
        }
        try validateDeclaration(manifest, identity: identity, manifestPath: manifestPath)
        let extensions = try extensionBuilds(
            manifest, folder: buildFolder, manifestPath: manifestPath, requiringExecutable: requiringExecutable)
        let executablePath = executables[manifest.id] ?? productsFolder + "/" + manifest.executable
        if !FileManager.default.isExecutableFile(atPath: executablePath) {
            if executables[manifest.id] != nil { throw .missingFile(executablePath, what: "archived executable") }
            if !requiringExecutable {
                return Build(
                    manifest: manifest, folder: buildFolder, entitlementsPath: entitlementsPath,
                    identity: identity, executablePath: executablePath, dataProtection: entitlements.dataProtection,
                    extensions: extensions)
            }
            throw .missingExecutable(manifest.executable, productsFolder: productsFolder, build: manifest.id)
        }
        return Build(
            manifest: manifest, folder: buildFolder, entitlementsPath: entitlementsPath,
            identity: identity, executablePath: executablePath, dataProtection: entitlements.dataProtection,
            extensions: extensions)
    }

    /// Each declared extension located: its entitlements file inside the build's folder, read by the
    /// one entitlements reader (its `application-identifier` must name the extension's bundle id), and its
    /// executable in the products folder (an archived run's copy is keyed `<build id>/<name>`).
    private func extensionBuilds(
        _ manifest: BuildManifest, folder buildFolder: String, manifestPath: String, requiringExecutable: Bool
    ) throws(DeviceError) -> [ExtensionBuild] {
        guard let declared = manifest.extensions else { return [] }
        if let reason = manifest.extensionsProblem() { throw .malformedFile(manifestPath, reason: reason) }
        var builds: [ExtensionBuild] = []
        for (index, item) in declared.enumerated() {
            let field = "extensions[\(index)].entitlements"
            let path = buildFolder + "/" + item.entitlements
            guard FileManager.default.fileExists(atPath: path) else {
                throw .malformedFile(
                    manifestPath,
                    reason:
                        "build \(manifest.id): field \"\(field)\" names \(item.entitlements), which is not in the build folder")
            }
            try requireInside(path, buildFolder: buildFolder, namedBy: manifestPath + " field \"\(field)\"")
            let bundleID = item.resolvedBundleID(appBundleID: manifest.bundleID)
            let identity = try BuildEntitlements(extensionFile: path, folder: buildFolder, bundleID: bundleID).identity
            if let appID = identity.applicationIdentifier, !appID.hasSuffix("." + bundleID), !appID.hasSuffix(".*") {
                throw .malformedFile(
                    path,
                    reason:
                        "\"application-identifier\" \(appID) does not name extension \(item.name)'s bundle id \(bundleID) (build \(manifest.id), field \"\(field)\" of \(manifestPath))"
                )
            }
            let executablePath = executables[manifest.id + "/" + item.name] ?? productsFolder + "/" + item.executable
            if requiringExecutable, !FileManager.default.isExecutableFile(atPath: executablePath) {
                throw .missingExecutable(item.executable, productsFolder: productsFolder, build: manifest.id)
            }
            builds.append(
                ExtensionBuild(
                    declaration: item, bundleID: bundleID, entitlementsPath: path, identity: identity,
                    executablePath: executablePath))
        }
        return builds
    }

    /// The secret labels any build of the folder (known-bad builds included) declares, sorted;
    /// manifests that do not read are passed over (this serves a leak scan, which should look for
    /// more rather than refuse).
    public func declaredSecretLabels() -> [String] {
        var labels: Set<String> = []
        let manager = FileManager.default
        for parent in [folder, mutantsFolder] {
            for name in (try? manager.contentsOfDirectory(atPath: parent)) ?? [] {
                guard let data = manager.contents(atPath: parent + "/" + name + "/" + BuildManifest.fileName),
                    let manifest = try? JSONDecoder().decode(BuildManifest.self, from: data)
                else { continue }
                labels.formUnion(manifest.keeps?.secretLabels ?? [])
            }
        }
        return labels.sorted()
    }

    /// `<folder>/mutants`, where the known-bad builds are.
    public var mutantsFolder: String { folder + "/" + Self.mutantsFolderName }

    /// The ids of the known-bad builds (every folder of ``mutantsFolder`` holding a build.json), sorted.
    public func mutantIDs() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: mutantsFolder)) ?? []
        return names.filter {
            FileManager.default.fileExists(atPath: mutantsFolder + "/" + $0 + "/" + BuildManifest.fileName)
        }.sorted()
    }

    /// The declaration is sound, and every store in it is one the build can hold: a keychain item
    /// in one of its access groups, an app-group file in one of its groups.
    private func validateDeclaration(
        _ manifest: BuildManifest, identity: AppIdentity, manifestPath: String
    ) throws(DeviceError) {
        guard let keeps = manifest.keeps else { return }
        if let reason = manifest.declarationProblem() { throw .malformedFile(manifestPath, reason: reason) }
        for (list, items) in [("secrets", keeps.secrets), ("bookkeeping", keeps.bookkeeping)] {
            for (index, item) in items.enumerated() {
                let field = "keeps.\(list)[\(index)].store"
                switch item.store {
                case .keychain(let key):
                    if let group = key.accessGroup, !identity.accessGroups.contains(group) {
                        throw .malformedFile(
                            manifestPath,
                            reason: "build \(manifest.id): field \"\(field).accessGroup\" \"\(group)\" is not one of the "
                                + "build's access groups (\(identity.accessGroups.joined(separator: ", "))): it cannot hold \(item.label)"
                        )
                    }
                case .appGroupFile(let group, _), .preference(_, .some(let group)), .groupPropertyList(let group, _, _),
                    .json(_, _, .some(let group)):
                    if !identity.applicationGroups.contains(group) {
                        throw .malformedFile(
                            manifestPath,
                            reason: "build \(manifest.id): field \"\(field).group\" \"\(group)\" is not one of the build's "
                                + "app groups: it cannot hold \(item.label)")
                    }
                default: break
                }
            }
        }
    }
}

import Foundation
import SimRuntime

/// The contents of `builds/<id>/build.json`: one archived app build.
public struct BuildManifest: Codable, Equatable, Sendable {
    public var id: String
    public var bundleID: String
    /// `CFBundleShortVersionString`, such as `2.1`.
    public var marketingVersion: String
    /// `CFBundleVersion`, such as `210`; it orders upgrades and downgrades.
    public var buildNumber: String
    /// The executable product name, looked up in the products folder.
    public var executable: String
    /// The app's data schema version (what its migrations bring the data to).
    public var schemaVersion: Int
    /// The entitlements property list, a file name inside the build folder.
    public var entitlements: String
    public var notes: String?
    /// Days after a migration before the build removes non-secret legacy artefacts (nil: it never
    /// does). The gate's artefact-window scenario checks they stay before and go after.
    public var artefactWindowDays: Int?
    /// For a known-bad build ("mutant", under `builds/mutants/`): the one anti-pattern it carries,
    /// in words from the seed documents. Nil for a real build.
    public var antiPattern: String?
    /// For a mutant: the gate condition id (such as `reads-old-data`) that must FAIL when the
    /// mutant is the new build. Nil for a real build.
    public var expectedCondition: String?
    /// What the build keeps where: its secrets by label and store, and its bookkeeping items (see
    /// ``BuildDeclaration``). Nil for a build that declares nothing (it has no secret to carry over).
    public var keeps: BuildDeclaration?

    public init(
        id: String, bundleID: String, marketingVersion: String, buildNumber: String, executable: String,
        schemaVersion: Int, entitlements: String, notes: String? = nil, artefactWindowDays: Int? = nil,
        antiPattern: String? = nil, expectedCondition: String? = nil, keeps: BuildDeclaration? = nil
    ) {
        self.id = id
        self.bundleID = bundleID
        self.marketingVersion = marketingVersion
        self.buildNumber = buildNumber
        self.executable = executable
        self.schemaVersion = schemaVersion
        self.entitlements = entitlements
        self.notes = notes
        self.artefactWindowDays = artefactWindowDays
        self.antiPattern = antiPattern
        self.expectedCondition = expectedCondition
        self.keeps = keeps
    }

    /// Orders build numbers as dotted integers (`9` < `10` < `10.1`), as the App Store does.
    public static func compareBuildNumbers(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let left = lhs.split(separator: ".").map { Int($0) ?? 0 }
        let right = rhs.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : 0
            let r = index < right.count ? right[index] : 0
            if l != r { return l < r ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }
}

/// A build ready to install: its manifest, its entitlements, and its executable located.
public struct Build: Sendable, Equatable {
    public var manifest: BuildManifest
    public var folder: String
    public var entitlementsPath: String
    /// The app's identity from its entitlements (never from the app itself).
    public var identity: AppIdentity
    public var executablePath: String
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

    public init(folder: String, productsFolder: String, executables: [String: String] = [:]) {
        self.folder = folder
        self.productsFolder = productsFolder
        self.executables = executables
    }

    /// The build with this id, or the build in this folder when `idOrPath` names one.
    /// - Throws: a ``DeviceError`` naming the manifest and field, the entitlements file, or the
    ///   missing executable.
    public func build(_ idOrPath: String) throws(DeviceError) -> Build {
        let buildFolder: String
        if idOrPath.contains("/") {
            buildFolder = idOrPath.hasSuffix("/") ? String(idOrPath.dropLast()) : idOrPath
        } else if !FileManager.default.fileExists(atPath: folder + "/" + idOrPath),
            FileManager.default.fileExists(atPath: mutantsFolder + "/" + idOrPath + "/build.json")
        {
            buildFolder = mutantsFolder + "/" + idOrPath
        } else {
            buildFolder = folder + "/" + idOrPath
        }
        let manifestPath = buildFolder + "/build.json"
        guard FileManager.default.fileExists(atPath: manifestPath) else {
            if FileManager.default.fileExists(atPath: buildFolder) {
                throw .missingFile(manifestPath, what: "build manifest")
            }
            throw .unknownBuild(idOrPath, buildsFolder: folder)
        }
        let manifest = try JSONFile.read(BuildManifest.self, from: manifestPath, what: "build manifest")
        try validate(manifest, manifestPath: manifestPath, folderName: (buildFolder as NSString).lastPathComponent)
        let entitlementsPath = buildFolder + "/" + manifest.entitlements
        guard FileManager.default.fileExists(atPath: entitlementsPath) else {
            throw .missingFile(entitlementsPath, what: "entitlements file named by \(manifestPath)")
        }
        let identity = try AppIdentity.ofBuild(folder: buildFolder, bundleID: manifest.bundleID)
        if let appID = identity.applicationIdentifier, !appID.hasSuffix("." + manifest.bundleID), !appID.hasSuffix(".*") {
            throw .malformedFile(
                entitlementsPath,
                reason:
                    "\"application-identifier\" \(appID) does not name bundle id \(manifest.bundleID) of \(manifestPath)")
        }
        try validateDeclaration(manifest, identity: identity, manifestPath: manifestPath)
        let executablePath = executables[manifest.id] ?? productsFolder + "/" + manifest.executable
        guard FileManager.default.isExecutableFile(atPath: executablePath) else {
            if executables[manifest.id] != nil { throw .missingFile(executablePath, what: "archived executable") }
            throw .missingExecutable(manifest.executable, productsFolder: productsFolder, build: manifest.id)
        }
        return Build(
            manifest: manifest, folder: buildFolder, entitlementsPath: entitlementsPath,
            identity: identity, executablePath: executablePath)
    }

    /// The secret labels any build of the folder (known-bad builds included) declares, sorted;
    /// manifests that do not read are passed over (this serves a leak scan, which should look for
    /// more rather than refuse).
    public func declaredSecretLabels() -> [String] {
        var labels: Set<String> = []
        let manager = FileManager.default
        for parent in [folder, mutantsFolder] {
            for name in (try? manager.contentsOfDirectory(atPath: parent)) ?? [] {
                guard let data = manager.contents(atPath: parent + "/" + name + "/build.json"),
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
        return names.filter { FileManager.default.fileExists(atPath: mutantsFolder + "/" + $0 + "/build.json") }.sorted()
    }

    /// The declaration is sound, and every store in it is one the build can hold: a keychain item
    /// in one of its access groups, an app-group file in one of its groups.
    private func validateDeclaration(
        _ manifest: BuildManifest, identity: AppIdentity, manifestPath: String
    ) throws(DeviceError) {
        guard let keeps = manifest.keeps else { return }
        if let (field, reason) = keeps.problem() {
            throw .malformedFile(manifestPath, reason: "build \(manifest.id): field \"\(field)\" \(reason)")
        }
        for (list, items) in [("secrets", keeps.secrets), ("bookkeeping", keeps.bookkeeping)] {
            for (index, item) in items.enumerated() {
                let field = "keeps.\(list)[\(index)].store"
                switch item.store {
                case .keychain(let key):
                    if let group = key.accessGroup, !identity.accessGroups.contains(group) {
                        throw .malformedFile(
                            manifestPath,
                            reason: "build \(manifest.id): field \"\(field).accessGroup\" \"\(group)\" is not one of the "
                                + "build's access groups (\(identity.accessGroups.joined(separator: ", "))): it cannot hold \(item.label)")
                    }
                case .appGroupFile(let group, _), .preference(_, .some(let group)):
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

    private func validate(_ manifest: BuildManifest, manifestPath: String, folderName: String) throws(DeviceError) {
        let required: [(String, String)] = [
            ("id", manifest.id), ("bundleID", manifest.bundleID), ("marketingVersion", manifest.marketingVersion),
            ("buildNumber", manifest.buildNumber), ("executable", manifest.executable), ("entitlements", manifest.entitlements),
        ]
        for (field, value) in required where value.trimmingCharacters(in: .whitespaces).isEmpty {
            throw .malformedFile(manifestPath, reason: "field \"\(field)\" is empty")
        }
        if manifest.id != folderName {
            throw .malformedFile(manifestPath, reason: "field \"id\" is \"\(manifest.id)\" but the folder is \(folderName)")
        }
        for (field, value) in [("executable", manifest.executable), ("entitlements", manifest.entitlements)]
        where value.contains("/") || value.hasPrefix(".") {
            throw .malformedFile(manifestPath, reason: "field \"\(field)\" must be a plain file name, not \"\(value)\"")
        }
        if manifest.buildNumber.split(separator: ".", omittingEmptySubsequences: false).contains(where: { Int($0) == nil }) {
            throw .malformedFile(
                manifestPath, reason: "field \"buildNumber\" is \"\(manifest.buildNumber)\", not dotted integers")
        }
    }
}

import Foundation
import UpgradeContract

/// The kinds of input the loader recognises, by content (an extension only labels a plist as `.entitlements`).
public enum SourceKind: String, Sendable, Encodable, CaseIterable {
    /// A build folder (`builds/<id>/build.json`), named by id or path.
    case build = "build"
    /// An XML property list, bare or as `codesign --entitlements :-` / `- --xml` prints it.
    case xmlPlist = "xml-plist"
    /// A binary (`bplist00`) property list.
    case binaryPlist = "binary-plist"
    /// The `[Dict]` text form `codesign --entitlements -` prints.
    case codesignText = "codesign-text"
    /// An Xcode `.entitlements` file, with its variables expanded.
    case xcodeEntitlements = "xcode-entitlements"
    /// An `embedded.mobileprovision` (CMS SignedData).
    case provisioningProfile = "provisioning-profile"
    /// The property list inside a profile, as `security cms -D` prints it: its `Entitlements` are read.
    case profilePlist = "profile-plist"
    /// A thin or universal Mach-O executable.
    case machO = "mach-o"
    /// A `.app` folder.
    case appBundle = "app"
}

/// One side of a diff: entitlements read from an input, with where they came from and what looked wrong.
public struct LoadedEntitlements: Sendable, Equatable {
    /// The input as the user gave it (a path or a build id).
    public let input: String
    /// What kind of input it turned out to be.
    public let kind: SourceKind
    /// The entitlements.
    public let entitlements: Entitlements
    /// A one-line description of the source (build id and team, profile expiry, Mach-O architectures, ...).
    public let summary: String
    /// Things that were read but looked wrong, such as an executable that disagrees with its profile.
    public let warnings: [String]
}

/// Reads entitlements from any supported input, detecting its kind.
public enum EntitlementsLoader {
    /// Loads `input`: a build id under `buildsRoot`, a build folder, a `.app` folder, or a file of any supported kind.
    /// - Parameter variables: the team and bundle id for Xcode variables (a build manifest's values take precedence).
    /// - Throws: one line naming the input and what was wrong.
    public static func load(
        _ input: String, variables: XcodeVariables, buildsRoot: String
    ) throws(EntitlementsError) -> LoadedEntitlements {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: input, isDirectory: &isFolder) {
            guard isFolder.boolValue else { return try loadFile(input, variables: variables) }
            let manifest = (input as NSString).appendingPathComponent(BuildManifest.fileName)
            if FileManager.default.fileExists(atPath: manifest) {
                return try loadBuild(folder: input, input: input, variables: variables)
            }
            let looksLikeApp =
                input.hasSuffix(".app") || input.hasSuffix(".app/")
                || FileManager.default.fileExists(atPath: (input as NSString).appendingPathComponent("Info.plist"))
                || FileManager.default.fileExists(atPath: (input as NSString).appendingPathComponent("Contents/Info.plist"))
            guard looksLikeApp else {
                throw EntitlementsError(input, "folder is neither an app bundle (no Info.plist) nor a build (no build.json)")
            }
            let app = try AppBundle.read(folder: input)
            var summary = "app bundle, executable \(app.executableName) (\(app.origin))"
            if let profile = app.profile { summary += "; embedded.mobileprovision: " + describe(profile) }
            return LoadedEntitlements(
                input: input, kind: .appBundle, entitlements: app.entitlements, summary: summary,
                warnings: app.warnings)
        }
        let buildFolder = (buildsRoot as NSString).appendingPathComponent(input)
        if !input.contains("/"), !input.isEmpty,
            FileManager.default.fileExists(atPath: (buildFolder as NSString).appendingPathComponent(BuildManifest.fileName))
        {
            return try loadBuild(folder: buildFolder, input: input, variables: variables)
        }
        throw EntitlementsError(input, "no such file, folder or build id (build ids are looked up in \(buildsRoot))")
    }

    /// Loads a build folder through its manifest.
    public static func loadBuild(
        folder: String, input: String, variables: XcodeVariables
    ) throws(EntitlementsError) -> LoadedEntitlements {
        let manifest = try BuildManifest.Signing.read(folder: folder)
        let path = (folder as NSString).appendingPathComponent(manifest.entitlements)
        guard FileManager.default.fileExists(atPath: path) else {
            throw EntitlementsError(path, "no such file (named by \"entitlements\" in \(BuildManifest.fileName))")
        }
        // The manifest says who the build is; settings given by the caller still override its own, as on xcodebuild's
        // command line.
        let buildVariables = XcodeVariables(
            team: manifest.team ?? variables.team, bundleID: manifest.bundleID,
            settings: (manifest.settings ?? [:]).merging(variables.settings, uniquingKeysWith: { $1 }))
        let inner = try load(path, variables: buildVariables, buildsRoot: "")
        guard inner.kind != .build else { throw EntitlementsError(path, "a build's entitlements cannot be another build") }
        let team = manifest.team.map { ", team \($0)" } ?? ""
        return LoadedEntitlements(
            input: input, kind: .build, entitlements: inner.entitlements,
            summary: "build \(manifest.id) (\(manifest.bundleID)\(team)), \(manifest.entitlements): \(inner.summary)",
            warnings: inner.warnings)
    }

    /// Loads one file, choosing the reader by its content.
    public static func loadFile(_ path: String, variables: XcodeVariables) throws(EntitlementsError) -> LoadedEntitlements {
        guard let data = FileManager.default.contents(atPath: path) else { throw EntitlementsError(path, "cannot read file") }
        return try read(data, file: path, variables: variables)
    }

    /// Reads entitlements from bytes already in memory, choosing the reader by content (a file name decides only
    /// whether a plist is labelled an Xcode `.entitlements` file); `file` names them in errors.
    public static func read(_ data: Data, file: String, variables: XcodeVariables) throws(EntitlementsError) -> LoadedEntitlements
    {
        let bytes = [UInt8](data.prefix(64))
        guard !bytes.isEmpty else { throw EntitlementsError(file, "empty file") }
        if MachOFile.looksLikeMachO(bytes) {
            let found = try MachOFile.read(data, file: file).entitlements(file: file)
            return LoadedEntitlements(
                input: file, kind: .machO, entitlements: found.entitlements,
                summary: "Mach-O executable (\(found.origin))", warnings: found.warnings)
        }
        let ext = (file as NSString).pathExtension.lowercased()
        let profileName = ext == "mobileprovision" || ext == "provisionprofile"
        // A profile's name with content that is no plist: the CMS reader says what the bytes are not.
        if ProvisioningProfile.looksLikeEnvelope(bytes) || (profileName && !PropertyListReader.looksLikePlist(bytes)) {
            let profile = try ProvisioningProfile.read(data, file: file)
            return LoadedEntitlements(
                input: file, kind: .provisioningProfile, entitlements: profile.entitlements,
                summary: "provisioning profile " + describe(profile), warnings: [])
        }
        let kind: SourceKind
        let raw: [String: PlistValue]
        if bytes.starts(with: Array("bplist".utf8)) {
            kind = .binaryPlist
            raw = try PropertyListReader.dictionary(from: data, file: file)
        } else {
            raw = try CodesignOutput.read(data, file: file)
            let text = String(decoding: data.prefix(4096), as: UTF8.self)
            if ext == "entitlements" {
                kind = .xcodeEntitlements
            } else if text.contains("[Dict]") && !text.contains("<plist") {
                kind = .codesignText
            } else {
                kind = .xmlPlist
            }
        }
        if ProvisioningProfile.isProfile(raw) {
            let profile = try ProvisioningProfile(plist: raw, file: file)
            return LoadedEntitlements(
                input: file, kind: .profilePlist, entitlements: profile.entitlements,
                summary: "provisioning profile plist (unwrapped) " + describe(profile), warnings: [])
        }
        let expanded = try variables.expand(raw, file: file)
        let summaries: [SourceKind: String] = [
            .binaryPlist: "binary property list", .xcodeEntitlements: "Xcode .entitlements file",
            .codesignText: "codesign [Dict] text", .xmlPlist: "XML property list",
        ]
        return LoadedEntitlements(
            input: file, kind: kind, entitlements: try Entitlements(checking: expanded, file: file),
            summary: summaries[kind] ?? kind.rawValue, warnings: [])
    }

    static func describe(_ profile: ProvisioningProfile) -> String {
        var parts: [String] = []
        if let name = profile.name { parts.append(PlistValue.quote(name)) }
        if !profile.teamIdentifiers.isEmpty { parts.append("team " + profile.teamIdentifiers.joined(separator: ",")) }
        if let expiry = profile.expirationDate { parts.append("expires " + PlistValue.iso8601(expiry)) }
        return parts.isEmpty ? "(no name, team or expiry)" : parts.joined(separator: ", ")
    }
}

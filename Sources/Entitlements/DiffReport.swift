import Foundation

/// The whole comparison of two builds' entitlements: key changes, keychain findings and the verdict.
public struct DiffReport: Sendable, Equatable, Encodable {
    /// One side of the comparison, as the report shows it.
    public struct Side: Sendable, Equatable, Encodable {
        /// The input as given.
        public let input: String
        /// What kind of input it was.
        public let kind: SourceKind
        /// Where the entitlements came from, in one line.
        public let summary: String
        /// The team prefix, when known.
        public let team: String?
        /// The access groups in securityd order.
        public let accessGroups: [String]

        init(_ loaded: LoadedEntitlements) {
            input = loaded.input
            kind = loaded.kind
            summary = loaded.summary
            team = loaded.entitlements.teamIdentifier
            accessGroups = loaded.entitlements.accessGroups
        }
    }

    /// Whether the new build reaches everything the old one could.
    public enum Verdict: String, Sendable, Encodable {
        /// No finding is an error: exit 0.
        case compatible
        /// At least one finding is an error: exit 1.
        case incompatible
    }

    /// The old build.
    public let old: Side
    /// The new build.
    public let new: Side
    /// Key-by-key changes, sorted by key.
    public let changes: [KeyChange]
    /// Input warnings first, then keychain findings in the analysis's fixed order.
    public let findings: [Finding]
    /// The item counts per access group that were given, if any.
    public let itemCounts: [String: Int]?
    /// With item counts: how many items sit in groups the new build cannot reach.
    public let unreachableItems: Int?
    /// Compatible when no finding is an error.
    public let verdict: Verdict

    /// 0 when compatible, 1 when not (2, bad input, never reaches a report).
    public let exitCode: Int32
    /// The app extensions of two builds compared by name (``ExtensionDiff``); nil when neither build
    /// declares `extensions`, so a diff of builds without them reads and encodes as it always did.
    public let extensions: [ExtensionDiff]?

    /// Compares two loaded inputs.
    public init(old: LoadedEntitlements, new: LoadedEntitlements, itemCounts: [String: Int]?) {
        self.init(old: old, new: new, itemCounts: itemCounts, extensions: nil)
    }

    /// Compares two loaded inputs and their builds' extensions: an error of an extension fails the verdict too.
    public init(old: LoadedEntitlements, new: LoadedEntitlements, itemCounts: [String: Int]?, extensions: [ExtensionDiff]?) {
        self.extensions = extensions
        self.old = Side(old)
        self.new = Side(new)
        changes = KeyChange.changes(from: old.entitlements, to: new.entitlements)
        let warnings = (old.warnings.map { ("old", $0) } + new.warnings.map { ("new", $0) }).map {
            Finding(.inputWarning, .warning, subject: $0.0, $0.1)
        }
        let all = warnings + KeychainImpact.findings(old: old.entitlements, new: new.entitlements, itemCounts: itemCounts)
        findings = all
        self.itemCounts = itemCounts
        unreachableItems = itemCounts.map { _ in
            all.filter { $0.id == .unreachableGroup || $0.id == .profileWildcard }.reduce(0) { $0 + ($1.items ?? 0) }
        }
        let extensionErrors = (extensions ?? []).contains { $0.findings.contains { $0.severity == .error } }
        verdict = all.contains { $0.severity == .error } || extensionErrors ? .incompatible : .compatible
        exitCode = verdict == .compatible ? 0 : 1
    }

    /// Compares two build folders' entitlements and their extensions' (the gate's entitlements scenario).
    /// - Throws: bad input naming the manifest, file or key.
    public static func builds(
        oldFolder: String, newFolder: String, oldInput: String, newInput: String, variables: XcodeVariables,
        itemCounts: [String: Int]?
    ) throws(EntitlementsError) -> DiffReport {
        let old = try EntitlementsLoader.loadBuild(folder: oldFolder, input: oldInput, variables: variables)
        let new = try EntitlementsLoader.loadBuild(folder: newFolder, input: newInput, variables: variables)
        let extensions = try ExtensionDiff.compare(
            oldFolder: oldFolder, newFolder: newFolder, variables: variables, itemCounts: itemCounts)
        return DiffReport(old: old, new: new, itemCounts: itemCounts, extensions: extensions)
    }

    /// The report as pretty-printed JSON with sorted keys, ending in a newline.
    public func json() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

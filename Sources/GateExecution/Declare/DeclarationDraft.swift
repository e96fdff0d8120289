import Foundation
import GateModel
import SimDevice
import SimRuntime
import SimSecurity
import UpgradeContract

/// A draft of a build's `keeps`, written from what its launches left (``BuildObservation``): each
/// declared secret where the seed's value was found, each store the launches wrote with its fields
/// and format, and the bookkeeping a fresh install's launch wrote for itself. Deterministic: the
/// same build gives the same draft (stores sorted, keys sorted). No secret value is in it.
package struct DeclarationDraft: Encodable {
    /// One store the launches left on the device.
    package struct ObservedStore: Encodable, Hashable {
        /// The store as build.json declares it (keychain fields as the keychain stores them).
        package var store: DeclaredStore
        /// The file's format, for a file (`plist`, `json`, `archive`, `raw`).
        package var format: StoreFormat?
        /// The declared secrets found in it, with the key path each was found at.
        package var holds: [String]
        /// The launches whose store operations changed it (`seed`, `launch`, `fresh-launch`).
        package var writtenBy: [String]
    }

    package var build: String
    package var keeps: BuildDeclaration
    package var stores: [ObservedStore]
    /// What a reviewer must look at: a secret found nowhere or in more than one place, a file the
    /// kinds cannot name.
    package var notes: [String]
    /// Each field of the build's own declaration that disagrees with the draft.
    package var differences: [String]

    /// The draft from `observation`.
    package init(_ observation: BuildObservation) {
        let build = observation.build
        self.build = build.manifest.id
        let caseID = observation.caseID
        var notes: [String] = []
        let declared = build.manifest.keeps ?? BuildDeclaration(secrets: [])
        // Every store the launches left, after the seed and the plain launch; then those only the
        // seed left (the launch moved them away) and those of the fresh install.
        let final = Self.candidates(observation.stores, build: build)
        let seeded = Self.candidates(observation.afterSeed, build: build)
        let fresh = Self.candidates(observation.freshInstall, build: build)
        let writers = Self.writers(observation)
        var secrets: [DeclaredItem] = []
        var holds: [Candidate: [String]] = [:]
        for item in declared.secrets {
            let label = item.label
            let text = observation.secrets[label]
            let data = observation.secrets.data(label)
            var places = final.filter { $0.matches(text: text, data: data) }
            if places.isEmpty {
                places = seeded.filter { $0.matches(text: text, data: data) }
                if !places.isEmpty {
                    notes.append(
                        "\(label): found where the seed left it, gone after the plain launch (the launch moved or removed it)")
                }
            }
            let ordered = places.sorted(by: Candidate.preferred)
            guard let first = ordered.first else {
                notes.append("\(label): the seed's value was found in no store of the build; kept as declared")
                secrets.append(item)
                continue
            }
            if ordered.count > 1 {
                notes.append(
                    "\(label): also found in " + ordered.dropFirst().map { $0.describe(caseID: caseID) }.joined(separator: ", "))
            }
            for place in ordered { holds[place.withoutValue, default: []].append(label) }
            var drafted = item
            drafted.store = first.store.unresolved(caseID: caseID)
            secrets.append(drafted)
        }
        for file in (final + seeded).filter({ $0.unnamedSecretFile }) {
            let labels = declared.secretLabels.filter { file.containsBytes(of: observation.secrets.data($0)) }
            for label in labels
            where !secrets.contains(where: { $0.label == label && $0.store.storeFile == file.store.storeFile }) {
                notes.append(
                    "\(label): inside \(file.describe(caseID: caseID)) at no key path a store kind can name")
            }
        }
        // Bookkeeping: the keychain items and preference keys a plain launch (the app's own, not
        // the seed) wrote that hold no secret: an install marker, a schema version.
        var bookkeeping: [DeclaredItem] = []
        let bookkept = (fresh + final).filter {
            $0.isRecord && holds[$0.withoutValue] == nil && writers($0).contains(where: { $0 != "seed" })
        }
        var seen: Set<DeclaredStore> = []
        for candidate in bookkept.sorted(by: Candidate.preferred) {
            let store = candidate.store.unresolved(caseID: caseID)
            guard seen.insert(store).inserted else { continue }
            let mine = declared.bookkeeping.first { Self.sameStore($0.store.resolved(caseID: caseID), candidate.store, build) }
            let label = mine?.label ?? candidate.name
            guard !bookkeeping.contains(where: { $0.label == label }), !secrets.contains(where: { $0.label == label }) else {
                continue
            }
            bookkeeping.append(DeclaredItem(label: label, store: store))
        }
        keeps = BuildDeclaration(secrets: secrets, bookkeeping: bookkeeping)
        var observed: [ObservedStore] = []
        var listed: Set<Candidate> = []
        for candidate in (final + seeded + fresh).map(\.withoutValue) where listed.insert(candidate).inserted {
            observed.append(
                ObservedStore(
                    store: candidate.store.unresolved(caseID: caseID), format: candidate.format,
                    holds: (holds[candidate] ?? []).sorted(), writtenBy: writers(candidate)))
        }
        stores = observed.sorted { $0.sortKey < $1.sortKey }
        self.notes = notes
        differences =
            Self.differences(declared: declared, observation: observation, final: final, seeded: seeded)
            + Self.bookkeepingDifferences(declared: declared.bookkeeping, drafted: bookkeeping, observation: observation)
    }

    /// The declared bookkeeping items no launch wrote, and the drafted ones not declared.
    private static func bookkeepingDifferences(
        declared: [DeclaredItem], drafted: [DeclaredItem], observation: BuildObservation
    ) -> [String] {
        let caseID = observation.caseID
        var lines: [String] = []
        for (index, item) in declared.enumerated()
        where !drafted.contains(where: {
            sameStore(item.store.resolved(caseID: caseID), $0.store.resolved(caseID: caseID), observation.build)
        }) {
            lines.append("keeps.bookkeeping[\(index)] \"\(item.label)\": no launch of the build wrote it")
        }
        for item in drafted
        where !declared.contains(where: {
            sameStore($0.store.resolved(caseID: caseID), item.store.resolved(caseID: caseID), observation.build)
        }) {
            lines.append("keeps.bookkeeping: \"\(item.label)\" is written by the build's launches but not declared")
        }
        return lines
    }

    /// Each declared secret whose declared store does not hold the value the launches wrote, as
    /// `field: reason` lines (``BuildPreflight`` reports the first).
    package static func differences(observation: BuildObservation) -> [String] {
        let build = observation.build
        let declared = build.manifest.keeps ?? BuildDeclaration(secrets: [])
        return differences(
            declared: declared, observation: observation, final: candidates(observation.stores, build: build),
            seeded: candidates(observation.afterSeed, build: build))
    }

    private static func differences(
        declared: BuildDeclaration, observation: BuildObservation, final: [Candidate], seeded: [Candidate]
    ) -> [String] {
        let build = observation.build
        var lines: [String] = []
        for (index, item) in declared.secrets.enumerated() {
            let field = "keeps.secrets[\(index)].store"
            let text = observation.secrets[item.label]
            let data = observation.secrets.data(item.label)
            let want = item.store.resolved(caseID: observation.caseID)
            let places = (final + seeded).filter { $0.matches(text: text, data: data) }
            if places.contains(where: { sameStore(want, $0.store, build) }) { continue }
            if let line = explain(
                want, places: places, field: field, label: item.label, caseID: observation.caseID, stores: observation.afterSeed)
            {
                lines.append(line)
            }
        }
        return lines
    }

    /// Why `want` does not hold the secret: the first field in which it differs from where the
    /// value was found, or the declared key or file that was never written.
    private static func explain(
        _ want: DeclaredStore, places: [Candidate], field: String, label: String, caseID: String,
        stores: BuildObservation.Stores
    ) -> String? {
        func q(_ text: String?) -> String {
            text.map { "\"\($0.replacingOccurrences(of: caseID, with: "$(CASE_ID)"))\"" } ?? "none"
        }
        let sameKind = places.filter { $0.store.kindWord == want.kindWord }.sorted(by: Candidate.preferred)
        if case .keychain(let declared) = want, let found = sameKind.first, case .keychain(let stored) = found.store {
            let a = normalized(declared, stored), b = stored
            let pairs: [(String, String?, String?)] = [
                ("class", a.itemClass, b.itemClass), ("service", a.service, b.service), ("server", a.server, b.server),
                ("account", a.account, b.account), ("port", a.port.map(String.init), b.port.map(String.init)),
                ("protocol", a.protocol, b.protocol), ("path", a.path, b.path),
                ("authenticationType", a.authenticationType, b.authenticationType),
                ("securityDomain", a.securityDomain, b.securityDomain), ("accessGroup", a.accessGroup, b.accessGroup),
                ("accessible", a.accessible, b.accessible),
                ("synchronizable", String(a.synchronizable), String(b.synchronizable)),
            ]
            if let (name, mine, theirs) = pairs.first(where: { $0.1 != $0.2 }) {
                return "\(field).\(name) of \"\(label)\" is \(q(mine)) but the build stored it with \(name) \(q(theirs))"
            }
        }
        if let found = sameKind.first {
            for name in ["suite", "group", "file", "keyPath", "key"] where want.field(name) != found.store.field(name) {
                return
                    "\(field).\(name) of \"\(label)\" is \(q(want.field(name))) but the build stored it at \(name) \(q(found.store.field(name)))"
            }
        }
        if let found = places.sorted(by: Candidate.preferred).first {
            return
                "\(field).kind of \"\(label)\" is \"\(want.kindWord)\" but the build stored it in \(found.describe(caseID: caseID))"
        }
        switch want {
        case .preference(let key, let suite):
            let keys = suite.map { stores.preferences[$0] ?? [:] } ?? stores.appPreferences
            if keys[key] == nil { return "\(field).key of \"\(label)\": the preference key \(q(key)) was never written" }
        case .propertyList(let file, _), .archive(let file, _), .json(let file, _, nil):
            if !stores.files.contains(where: { $0.group == nil && $0.path == file }) {
                return "\(field).file of \"\(label)\": \(q(file)) was never written"
            }
        case .appGroupFile(let group, let file), .groupPropertyList(let group, let file, _), .json(let file, _, let group?):
            if !stores.files.contains(where: { $0.group == group && $0.path == file }) {
                return "\(field).file of \"\(label)\": \(q(file)) in \(group) was never written"
            }
        case .keychain(let declared):
            // A value the app transforms before storing is found nowhere: the item's key is checked.
            let items = stores.keychain.map(declaration(of:))
            if !items.contains(where: { normalized(declared, $0) == $0 }) {
                return "\(field) of \"\(label)\": the build wrote no keychain item with this key"
            }
        }
        return nil
    }

    /// Whether the declared store `declared` (resolved) names the observed `observed`: a keychain
    /// item with the declaration's defaults filled in (the build's first access group, `ak`).
    static func sameStore(_ declared: DeclaredStore, _ observed: DeclaredStore, _ build: Build) -> Bool {
        switch (declared, observed) {
        case (.keychain(let a), .keychain(let b)): return normalized(a, b) == b
        case (.archive(let f1, let k1), .archive(let f2, let k2)): return f1 == f2 && (k1 ?? "") == (k2 ?? "")
        default: return declared == observed
        }
    }

    /// `item` with the fields it leaves out taken from `observed`: a field a declaration leaves
    /// out (the access group, the protection class) is not compared, as the gate does not judge it.
    static func normalized(_ item: KeychainItemDeclaration, _ observed: KeychainItemDeclaration) -> KeychainItemDeclaration {
        var item = item
        if item.accessGroup == nil { item.accessGroup = observed.accessGroup }
        if item.accessible == nil { item.accessible = observed.accessible }
        return item
    }

    /// The launches whose mutations touched each candidate's store.
    private static func writers(_ observation: BuildObservation) -> (Candidate) -> [String] {
        { candidate in
            observation.launches.filter { launch in
                launch.mutations.contains { $0.mutation != nil && candidate.touched(by: $0.subject, caseID: observation.caseID) }
            }.map(\.name)
        }
    }

    /// Every store of `stores`: each keychain item, preference key, file (and each key path in it).
    static func candidates(_ stores: BuildObservation.Stores, build: Build) -> [Candidate] {
        var found: [Candidate] = []
        for item in stores.keychain {
            found.append(Candidate(store: .keychain(declaration(of: item)), value: item.data, bytes: item.data))
        }
        for key in stores.appPreferences.keys.sorted() {
            found.append(Candidate(store: .preference(key: key, suite: nil), value: stores.appPreferences[key]))
        }
        for suite in stores.preferences.keys.sorted() {
            for key in stores.preferences[suite]!.keys.sorted() {
                found.append(Candidate(store: .preference(key: key, suite: suite), value: stores.preferences[suite]![key]))
            }
        }
        for file in stores.files {
            let format = StoreFormat.of(file.data)
            var nested: [Candidate] = []
            for (keyPath, value) in StoreFormat.leaves(of: file.data, as: format) {
                let store: DeclaredStore? =
                    switch (format, file.group) {
                    case (.plist, nil): .propertyList(file: file.path, keyPath: keyPath)
                    case (.plist, let group?): .groupPropertyList(group: group, file: file.path, keyPath: keyPath)
                    case (.json, let group): .json(file: file.path, keyPath: keyPath, group: group)
                    case (.archive, nil): .archive(file: file.path, keyPath: keyPath.isEmpty ? nil : keyPath)
                    default: nil
                    }
                if let store, !keyPath.isEmpty || format == .archive {
                    nested.append(Candidate(store: store, value: value, format: format))
                }
            }
            let whole: DeclaredStore? = file.group.map { .appGroupFile(group: $0, file: file.path) }
            found.append(
                Candidate(
                    store: whole ?? .wholeFile(file.path), value: whole == nil ? nil : file.data, format: format,
                    bytes: file.data, fileOnly: true))
            found += nested
        }
        return found
    }

    /// A keychain item as build.json declares it, every field the keychain stores spelled out.
    static func declaration(of item: KeychainItemRecord) -> KeychainItemDeclaration {
        let a = item.attributes
        let inet = item.itemClass == "inet"
        return KeychainItemDeclaration(
            itemClass: item.itemClass, service: inet ? nil : a["svce"], server: inet ? a["srvr"] : nil,
            account: a["acct"] ?? "", accessGroup: item.accessGroup, accessible: item.accessible,
            synchronizable: item.synchronizable, port: inet ? a["port"].flatMap { Int($0) }.flatMap { $0 == 0 ? nil : $0 } : nil,
            protocol: inet ? a["ptcl"].flatMap { $0.isEmpty ? nil : $0 } : nil,
            path: inet ? a["path"].flatMap { $0.isEmpty ? nil : $0 } : nil,
            authenticationType: inet ? a["atyp"].flatMap { $0.isEmpty ? nil : $0 } : nil,
            securityDomain: inet ? a["sdmn"].flatMap { $0.isEmpty ? nil : $0 } : nil)
    }
}

/// One place a value can be: a store as build.json would declare it, with what it holds.
struct Candidate: Hashable {
    var store: DeclaredStore
    /// The value at the store (a string, number, data, ...); compared, never printed.
    var valueBox: ValueBox
    var format: StoreFormat?
    /// The whole item's or file's bytes, for a secret inside them at no key path.
    var bytes: Data?
    /// A file in the data container listed as a whole (no store kind names a raw file there).
    var fileOnly = false

    init(store: DeclaredStore, value: Any?, format: StoreFormat? = nil, bytes: Data? = nil, fileOnly: Bool = false) {
        self.store = store
        self.valueBox = ValueBox(value)
        self.format = format
        self.bytes = bytes
        self.fileOnly = fileOnly
    }

    /// The same store without its value (the key of the observed-stores list).
    var withoutValue: Candidate {
        var copy = self
        copy.valueBox = ValueBox(nil)
        copy.bytes = nil
        return copy
    }

    /// Whether the value is the secret: the same text, or the same bytes.
    func matches(text: String, data: Data) -> Bool {
        if case .appGroupFile(let group, _) = store, group.isEmpty { return false }
        if fileOnly, case .appGroupFile = store { return bytes == data }
        // A keychain item's data may wrap the value (an archived or encoded record): its bytes
        // there count, as the gate's locator counts them.
        if case .keychain = store { return bytes == data || containsBytes(of: data) }
        switch valueBox.value {
        case let string as String: return string == text
        case let bytes as Data: return bytes == data
        default: return false
        }
    }

    /// A whole file that may hold a secret at no key path.
    var unnamedSecretFile: Bool { fileOnly }

    func containsBytes(of data: Data) -> Bool {
        guard let bytes, !data.isEmpty else { return false }
        return SecretPatterns.storedForms(of: data).contains { bytes.range(of: Data($0)) != nil }
    }

    /// A keychain item or a preference key: what can be bookkeeping.
    var isRecord: Bool {
        switch store {
        case .keychain, .preference: true
        default: false
        }
    }

    /// A stable name for the store (a bookkeeping label): the account, key or file name.
    var name: String {
        switch store {
        case .keychain(let item): item.account.isEmpty ? (item.service ?? item.server ?? "item") : item.account
        case .preference(let key, _): key
        default: (store.storeFile as NSString?)?.lastPathComponent ?? "file"
        }
    }

    func describe(caseID: String) -> String {
        let text: String
        switch store.unresolved(caseID: caseID) {
        case .keychain(let item):
            text =
                "the keychain item \(item.itemClass) "
                + (item.itemClass == "inet" ? "server \"\(item.server ?? "")\"" : "service \"\(item.service ?? "")\"")
                + " account \"\(item.account)\""
        case .preference(let key, let suite): text = "the preference key \"\(key)\"" + (suite.map { " of suite \($0)" } ?? "")
        case .propertyList(let file, let keyPath), .groupPropertyList(_, let file, let keyPath):
            text = "the plist file \"\(file)\" at \"\(keyPath)\""
        case .json(let file, let keyPath, _): text = "the JSON file \"\(file)\" at \"\(keyPath)\""
        case .archive(let file, let keyPath): text = "the archive \"\(file)\"" + (keyPath.map { " at \"\($0)\"" } ?? "")
        case .appGroupFile(let group, let file): text = "the file \"\(file)\" of \(group)"
        }
        return text
    }

    /// Whether a mutation-log subject names this store.
    func touched(by subject: SeamSubject, caseID: String) -> Bool {
        switch store {
        case .keychain(let item):
            return subject.store == item.itemClass && (subject.account ?? "") == item.account
                && (subject.service == nil || subject.service == item.service || subject.service == item.server)
        case .preference(let key, _): return subject.store == "preferences" && subject.name == key
        default:
            guard let file = store.storeFile else { return false }
            let path = store.group.flatMap { $0.isEmpty ? nil : $0 + "/" + file } ?? file
            return subject.store != "preferences" && (subject.name == path || subject.target == path)
        }
    }

    /// Keychain first, then preferences, then files; within each, by the store's text.
    static func preferred(_ a: Candidate, _ b: Candidate) -> Bool { a.sortKey < b.sortKey }

    var sortKey: String { store.sortKey }

    static func == (a: Candidate, b: Candidate) -> Bool {
        a.store == b.store && a.format == b.format && a.fileOnly == b.fileOnly && a.bytes == b.bytes
            && a.valueBox == b.valueBox
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(store)
        hasher.combine(format)
        hasher.combine(fileOnly)
    }
}

/// A property-list or JSON value, compared by its description (never printed).
struct ValueBox: Hashable {
    let value: Any?
    private let key: String
    init(_ value: Any?) {
        self.value = value
        key = value.map { String(describing: $0) } ?? ""
    }
    static func == (a: ValueBox, b: ValueBox) -> Bool { a.key == b.key }
    func hash(into hasher: inout Hasher) { hasher.combine(key) }
}

extension DeclarationDraft.ObservedStore {
    var sortKey: String { store.sortKey }

    enum CodingKeys: String, CodingKey { case store, format, holds, writtenBy }

    /// A raw file of the data container (no store kind declares one) as `{"kind": "file", "file": ...}`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if case .appGroupFile(let group, let file) = store, group.isEmpty {
            try container.encode(["kind": "file", "file": file], forKey: .store)
        } else {
            try container.encode(store, forKey: .store)
        }
        try container.encodeIfPresent(format, forKey: .format)
        try container.encode(holds, forKey: .holds)
        try container.encode(writtenBy, forKey: .writtenBy)
    }
}

extension DeclaredStore {
    /// A raw file in the data container: no store kind declares one, but `declare` lists it (as
    /// an `appGroupFile` without a group would read: `{"kind": "file", "file": ...}`).
    static func wholeFile(_ file: String) -> DeclaredStore { .appGroupFile(group: "", file: file) }

    /// The store with every occurrence of `caseID` written back as `$(CASE_ID)`.
    func unresolved(caseID: String) -> DeclaredStore {
        func u(_ text: String) -> String { text.replacingOccurrences(of: caseID, with: "$(CASE_ID)") }
        switch self {
        case .preference(let key, let suite): return .preference(key: u(key), suite: suite)
        case .propertyList(let file, let keyPath): return .propertyList(file: u(file), keyPath: u(keyPath))
        case .archive(let file, let keyPath): return .archive(file: u(file), keyPath: keyPath.map(u))
        case .keychain(var item):
            item.service = item.service.map(u)
            item.server = item.server.map(u)
            item.account = u(item.account)
            return .keychain(item)
        case .appGroupFile(let group, let file): return .appGroupFile(group: group, file: u(file))
        case .groupPropertyList(let group, let file, let keyPath):
            return .groupPropertyList(group: group, file: u(file), keyPath: u(keyPath))
        case .json(let file, let keyPath, let group): return .json(file: u(file), keyPath: u(keyPath), group: group)
        }
    }

    /// The kind word build.json spells.
    var kindWord: String {
        switch self {
        case .preference: "preference"
        case .propertyList, .groupPropertyList: "plist"
        case .json: "json"
        case .archive: "archive"
        case .keychain: "keychain"
        case .appGroupFile(let group, _): group.isEmpty ? "file" : "appGroupFile"
        }
    }

    /// The file the store is in (nil: a keychain item or a preference key).
    var storeFile: String? {
        switch self {
        case .propertyList(let file, _), .archive(let file, _), .appGroupFile(_, let file), .groupPropertyList(_, let file, _),
            .json(let file, _, _):
            file
        case .preference, .keychain: nil
        }
    }

    /// A field of the store by its build.json name (nil: not given).
    func field(_ name: String) -> String? {
        switch (self, name) {
        case (.preference(let key, _), "key"): key
        case (.preference(_, let suite), "suite"): suite
        case (.propertyList(_, let keyPath), "keyPath"), (.groupPropertyList(_, _, let keyPath), "keyPath"),
            (.json(_, let keyPath, _), "keyPath"):
            keyPath
        case (.archive(_, let keyPath), "keyPath"): keyPath ?? ""
        case (_, "file"): storeFile
        case (_, "group"): group.flatMap { $0.isEmpty ? nil : $0 }
        default: nil
        }
    }

    /// Orders stores: keychain items, preference keys, files, each by its JSON.
    var sortKey: String {
        let rank =
            switch self {
            case .keychain: "0"
            case .preference: "1"
            default: "2"
            }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return rank + (String(data: (try? encoder.encode(self)) ?? Data(), encoding: .utf8) ?? "")
    }
}

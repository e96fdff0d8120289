import Foundation

import Security

/// The launch sequence of Mail 2.0, 3.0 and 4.0 (`application(_:didFinishLaunchingWithOptions:)`), as the
/// iOS app runs it. 2.0 moves the IMAP password from the archive, and the SMTP password from the
/// settings plist, into the keychain (write, read back, only then remove the plaintext). 3.0 then
/// brings the settings plist to its schema 2 (the signature under its new key), atomically: after
/// the passwords left it, so that no copy of one is ever rewritten (a crash between an atomic
/// write's temporary file and its rename leaves that file behind). 4.0 renames the IMAP password into
/// an internet password for its server, port and protocol, the item its login query reads.
public struct MailLaunch: Sendable {
    /// What the launch did to one secret, for the app's log (and the automation's status file).
    public struct Step: Sendable {
        public enum Outcome: String, Sendable { case moved, kept, failed }
        public var label: String, store: String, operation: String, status: Int32, outcome: Outcome
    }

    public enum State: String, Sendable { case migrated, upToDate, deferred, failed }

    public static let installedKey = "mail.installed"
    public static let schemaKey = "mail.schema"
    public static let imapAccount = "imap"
    public static let smtpAccount = "smtp"

    public let release: Int
    /// Known-bad 2.0 beta: the archive is removed before the keychain write is confirmed.
    public var removeArchiveFirst = false
    /// Known-bad 3.0 beta: the settings plist is brought to schema 2 first, while it still holds the
    /// SMTP password, and in place (`Data.write` without `.atomic`).
    public var rewriteSettingsInPlace = false

    /// Known-bad 3.0 beta: the inbox opens with the account the keychain holds before the launch
    /// moves anything into it (the migration runs after the first screen).
    public var readBeforeMigrating = false

    /// Known-bad 3.0 beta: the inbox's account check adds `kSecAttrAccessibleWhenUnlocked` to its
    /// query, so it finds none of the passwords saved `AfterFirstUnlock`.
    public var accessibleInQuery = false

    /// Known-bad 3.0 beta: the reinstall sweep was dropped (a first launch with no marker and no
    /// files no longer deletes the old install's items), and build.json declares no policy for it.
    public var sweepsOnReinstall = true

    /// Known-bad 4.0 beta: the rename of the IMAP password into an internet password re-adds it
    /// without its port and protocol (and reads it back the same way, so the rename "succeeds"); the
    /// inbox's login query names them and never finds it.
    public var renameDropsPort = false

    /// Known-bad 4.1 beta: the notification service extension reads the IMAP password only where 4.0
    /// keeps it (the internet password). A push that arrives after the update, before the user opens
    /// the app (whose first launch renames it), shows no preview: the extension finds no password.
    public var previewReadsOnlyNewPlace = false

    /// Mail 3.2 and 4.2: the IMAP password travels to the user's other devices (a synchronizable item,
    /// through iCloud Keychain), and a fresh install's sweep spares synchronizable items (they came from
    /// another device of the user).
    public var syncsIMAP = false

    /// Mail 4.2: the rename into an internet password keeps the synchronizable generic password that
    /// 3.2, still running on the user's other devices, reads (deleting it would delete it there too).
    public var keepsSyncedOriginal = false

    public init(
        release: Int, removeArchiveFirst: Bool = false, rewriteSettingsInPlace: Bool = false, readBeforeMigrating: Bool = false,
        accessibleInQuery: Bool = false, sweepsOnReinstall: Bool = true, renameDropsPort: Bool = false,
        previewReadsOnlyNewPlace: Bool = false, syncsIMAP: Bool = false, keepsSyncedOriginal: Bool = false
    ) {
        self.syncsIMAP = syncsIMAP
        self.keepsSyncedOriginal = keepsSyncedOriginal
        self.previewReadsOnlyNewPlace = previewReadsOnlyNewPlace
        self.renameDropsPort = renameDropsPort
        self.release = release
        self.removeArchiveFirst = removeArchiveFirst
        self.rewriteSettingsInPlace = rewriteSettingsInPlace
        self.readBeforeMigrating = readBeforeMigrating
        self.accessibleInQuery = accessibleInQuery
        self.sweepsOnReinstall = sweepsOnReinstall
    }

    /// One password as the inbox's account check read it.
    public struct Read: Sendable {
        public var label: String, store: String, operation: String, status: Int32, password: String?
    }

    /// What the inbox reads at launch to sign in: each password from where this release keeps it
    /// (2.0 and later: the keychain, 4.0's IMAP password as an internet password; 1.0: its files).
    public func accountCheck() -> [Read] {
        [("imapPassword", Self.imapAccount), ("smtpPassword", Self.smtpAccount)].map { label, account in
            guard release >= 2 else {
                return legacyRead(label) ?? Read(label: label, store: "file", operation: "read", status: ENOENT, password: nil)
            }
            let synchronizable = syncsIMAP && label == "imapPassword"
            if release >= 4 && label == "imapPassword" {
                let (status, data) = CredentialStore.read(CredentialStore.imapKey(synchronizable: synchronizable))
                return Read(
                    label: label, store: "keychain", operation: "SecItemCopyMatching", status: status,
                    password: data.map { String(decoding: $0, as: UTF8.self) })
            }
            let (status, password) = CredentialStore.read(
                account: account, accessible: accessibleInQuery ? kSecAttrAccessibleWhenUnlocked : nil,
                synchronizable: synchronizable)
            return Read(label: label, store: "keychain", operation: "SecItemCopyMatching", status: status, password: password)
        }
    }

    /// What the notification service extension (Mail 3.1 and later) reads to fetch a message's
    /// preview: the IMAP password, from the keychain group it shares with the app. 4.x's extension
    /// reads the generic password 3.x kept, then the internet password the app's first launch after
    /// the update renames it into (an extension never migrates: the app does). Old place first: the
    /// app adds the new item before it deletes the old one, so in that order the extension finds the
    /// password whatever the app's launch is doing at the same moment; new place first would miss
    /// both between the app's add and its delete (the interleavings scenario found that schedule).
    public func previewRead() -> [Read] {
        var places = [CredentialStore.genericKey(account: Self.imapAccount)]
        if release >= 4 { places = previewReadsOnlyNewPlace ? [CredentialStore.imapKey()] : places + [CredentialStore.imapKey()] }
        var (status, data): (OSStatus, Data?) = (errSecItemNotFound, nil)
        for key in places where status == errSecItemNotFound { (status, data) = CredentialStore.read(key) }
        return [
            Read(
                label: "imapPassword", store: "keychain", operation: "SecItemCopyMatching", status: status,
                password: data.map { String(decoding: $0, as: UTF8.self) })
        ]
    }

    private func legacyRead(_ label: String) -> Read? {
        if label == "imapPassword" {
            guard FileManager.default.fileExists(atPath: LegacyStores.archiveURL.path) else { return nil }
            let (password, problem) = LegacyStores.loadAccount()
            return Read(
                label: label, store: "file", operation: "unarchivedObject", status: problem == nil ? 0 : errSecDecode,
                password: password)
        }
        guard FileManager.default.fileExists(atPath: LegacyStores.settingsURL.path) else { return nil }
        let (settings, problem) = LegacyStores.loadSettings()
        return Read(
            label: label, store: "file", operation: "propertyList", status: problem == nil ? 0 : errSecDecode,
            password: settings?["smtpPassword"] as? String)
    }

    private var defaults: UserDefaults { .standard }

    /// `protectedDataAvailable`: `UIApplication.shared.isProtectedDataAvailable`, after waiting for
    /// `protectedDataDidBecomeAvailableNotification`. Before it, nothing is read or removed.
    /// `firstScreen` is what the inbox read when it appeared: after the migration, or, in the
    /// known-bad 3.0 beta, before it (nil: the inbox appears after this function returns).
    public func launch(protectedDataAvailable: Bool) -> (state: State, steps: [Step], firstScreen: [Read]?) {
        let firstScreen = readBeforeMigrating ? accountCheck() : nil
        let (state, steps) = run(protectedDataAvailable: protectedDataAvailable)
        return (state, steps, firstScreen)
    }

    /// The migration part of the launch sequence.
    public func run(protectedDataAvailable: Bool) -> (state: State, steps: [Step]) {
        guard release >= 2 else { return (.upToDate, []) }
        guard protectedDataAvailable else { return (.deferred, []) }
        var steps: [Step] = []
        if !defaults.bool(forKey: Self.installedKey) {
            // No marker: a first launch. An upgrade from 1.0 has its files; a reinstall has none,
            // and must not read the old install's keychain items.
            let files = FileManager.default
            if sweepsOnReinstall && !files.fileExists(atPath: LegacyStores.archiveURL.path)
                && !files.fileExists(atPath: LegacyStores.settingsURL.path)
            {
                let status = CredentialStore.sweep(sparingSynchronizable: syncsIMAP)
                guard status == errSecSuccess else {
                    return (
                        .failed,
                        [Step(label: "sweep", store: "keychain", operation: "SecItemDelete", status: status, outcome: .failed)]
                    )
                }
            }
            defaults.set(true, forKey: Self.installedKey)
        }
        if defaults.integer(forKey: Self.schemaKey) >= release { return (.upToDate, steps) }
        var ok = true
        if release >= 3 && rewriteSettingsInPlace { ok = upgradeSettings(&steps) }
        ok = moveIMAPPassword(&steps) && ok
        ok = moveSMTPPassword(&steps) && ok
        if release >= 3 && !rewriteSettingsInPlace { ok = ok && upgradeSettings(&steps) }
        if release >= 4 { ok = ok && renameIMAPPassword(&steps) }
        guard ok else { return (.failed, steps) }
        defaults.set(release, forKey: Self.schemaKey)
        return (.migrated, steps)
    }

    /// What a launch of this release leaves in UserDefaults once it has run: the install marker and
    /// the schema. (An install that has these and no legacy files is this release's own, not a reinstall.)
    public func markInstalled() {
        defaults.set(true, forKey: Self.installedKey)
        defaults.set(release, forKey: Self.schemaKey)
    }

    private func moveIMAPPassword(_ steps: inout [Step]) -> Bool {
        let (password, problem) = LegacyStores.loadAccount()
        if let problem {
            steps.append(Step(label: "imapPassword", store: "file", operation: problem, status: errSecDecode, outcome: .kept))
            return false
        }
        guard let password else { return true }
        if removeArchiveFirst { try? FileManager.default.removeItem(at: LegacyStores.archiveURL) }
        guard saveAndReadBack(password, account: Self.imapAccount, label: "imapPassword", synchronizable: syncsIMAP, &steps)
        else { return false }
        do {
            try FileManager.default.removeItem(at: LegacyStores.archiveURL)
        } catch {
            steps.append(Step(label: "imapPassword", store: "file", operation: "removeItem", status: errSecIO, outcome: .failed))
            return false
        }
        steps.append(Step(label: "imapPassword", store: "keychain", operation: "SecItemAdd", status: 0, outcome: .moved))
        return true
    }

    /// 4.0: the IMAP password from its generic password into an internet password for the server
    /// (read old, add new, read the new back, only then delete the old). The bytes move as they are.
    private func renameIMAPPassword(_ steps: inout [Step]) -> Bool {
        let old = CredentialStore.genericKey(account: Self.imapAccount, synchronizable: syncsIMAP)
        let (status, data) = CredentialStore.read(old)
        guard status != errSecItemNotFound else { return true }
        guard status == errSecSuccess, let data else {
            steps.append(
                Step(label: "imapPassword", store: "keychain", operation: "SecItemCopyMatching", status: status, outcome: .kept))
            return false
        }
        let key = CredentialStore.imapKey(withPort: !renameDropsPort, synchronizable: syncsIMAP)
        var added = CredentialStore.add(data, as: key)
        if added == errSecDuplicateItem { added = SecItemUpdate(key as CFDictionary, [kSecValueData: data] as CFDictionary) }
        let (readBack, stored) = CredentialStore.read(key)
        guard added == errSecSuccess, readBack == errSecSuccess, stored == data else {
            let failure = added != errSecSuccess ? added : (readBack != errSecSuccess ? readBack : errSecDecode)
            steps.append(
                Step(label: "imapPassword", store: "keychain", operation: "SecItemAdd", status: failure, outcome: .failed))
            return false
        }
        if keepsSyncedOriginal {
            steps.append(Step(label: "imapPassword", store: "keychain", operation: "SecItemAdd", status: 0, outcome: .moved))
            return true
        }
        let deleted = SecItemDelete(old as CFDictionary)
        steps.append(
            Step(
                label: "imapPassword", store: "keychain", operation: "SecItemDelete", status: deleted,
                outcome: deleted == errSecSuccess ? .moved : .failed))
        return deleted == errSecSuccess
    }

    /// Settings schema 2: the signature under `compose.signature`. A file whose SMTP password is
    /// not text is left as it is.
    private func upgradeSettings(_ steps: inout [Step]) -> Bool {
        let (loaded, problem) = LegacyStores.loadSettings()
        guard problem == nil, var settings = loaded else { return readProblem(problem, &steps) }
        guard (settings["schema"] as? Int ?? 1) < 2 else { return true }
        guard settings["smtpPassword"] == nil || settings["smtpPassword"] is String else {
            return readProblem("smtpPassword", &steps)
        }
        settings["compose.signature"] = settings.removeValue(forKey: "signature")
        settings["schema"] = 2
        return write(settings, &steps)
    }

    private func moveSMTPPassword(_ steps: inout [Step]) -> Bool {
        let (loaded, problem) = LegacyStores.loadSettings()
        guard problem == nil, var settings = loaded else { return readProblem(problem, &steps) }
        guard let stored = settings["smtpPassword"] else { return true }
        guard let password = stored as? String else { return readProblem("smtpPassword", &steps) }
        guard saveAndReadBack(password, account: Self.smtpAccount, label: "smtpPassword", &steps) else { return false }
        settings["smtpPassword"] = nil
        guard write(settings, &steps) else { return false }
        steps.append(Step(label: "smtpPassword", store: "keychain", operation: "SecItemAdd", status: 0, outcome: .moved))
        return true
    }

    /// Saves the secret and reads it back; false (with the failed step) unless the keychain holds it.
    private func saveAndReadBack(
        _ secret: String, account: String, label: String, synchronizable: Bool = false, _ steps: inout [Step]
    ) -> Bool {
        let saved = CredentialStore.save(secret, account: account, synchronizable: synchronizable)
        let (status, stored) = CredentialStore.read(account: account, synchronizable: synchronizable)
        guard saved == errSecSuccess, status == errSecSuccess, stored == secret else {
            let failure = saved != errSecSuccess ? saved : (status != errSecSuccess ? status : errSecDecode)
            steps.append(Step(label: label, store: "keychain", operation: "SecItemAdd", status: failure, outcome: .failed))
            return false
        }
        return true
    }

    private func readProblem(_ problem: String?, _ steps: inout [Step]) -> Bool {
        guard let problem else { return true }
        steps.append(Step(label: "smtpPassword", store: "file", operation: problem, status: errSecDecode, outcome: .kept))
        return false
    }

    private func write(_ settings: [String: Any], _ steps: inout [Step]) -> Bool {
        do {
            try LegacyStores.writeSettings(settings, atomically: !rewriteSettingsInPlace)
            return true
        } catch {
            steps.append(Step(label: "smtpPassword", store: "file", operation: "write", status: errSecIO, outcome: .failed))
            return false
        }
    }
}

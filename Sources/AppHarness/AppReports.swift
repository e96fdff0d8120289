import Foundation

/// What an app's own code says it did to one secret, in its own type: a step of its launch
/// sequence, a read of its first screen. The app's type conforms in its automation module, in one
/// line when its properties have these names (`extension MailLaunch.Step: SecretReport {}`), so the
/// app's code stays free of the harness; ``HarnessLaunch/record(_:_:)`` and
/// ``SecretRead/init(_:text:)`` take it as it is.
public protocol SecretReport {
    /// The secret's label, as the build's declaration names it.
    var label: String { get }
    /// Where: a ``StoreLocation`` word (`keychain`, `preferences`, `archive`, `plist`, `file`); any other is `file`.
    var store: String { get }
    /// The call whose answer decided it (`SecItemAdd`, `removeItem`, ...).
    var operation: String { get }
    /// Its OSStatus, or an errno-style code for preferences and files; 0 for success.
    var status: Int32 { get }
}

extension SecretReport {
    /// ``store`` as the contract's word.
    public var location: StoreLocation { StoreLocation(rawValue: store) ?? .file }
}

extension HarnessLaunch {
    /// Records the app's own report of what it did to a secret, with the contract's word for it.
    public func record(_ report: some SecretReport, _ result: ItemResult) {
        record(report.label, report.location, report.operation, report.status, result)
    }

    /// Waits, as the app does at launch, until protected data is available (the device unlocked
    /// since boot, or unlocked while it waits) or the launch's `-UITestProtectedDataTimeout` passes;
    /// whether it is available. `UIApplication.isProtectedDataAvailable` after waiting for
    /// `protectedDataDidBecomeAvailableNotification`, on iOS.
    public func waitForProtectedData() async -> Bool {
        await environment.protectedData.waitUntilAvailable(timeout: environment.protectedDataTimeout)
    }

    /// Seeds through the app's own function (an account screen's Save): runs `save` with the case's
    /// secrets and records each secret the build declares as written by `operation`, or failed with
    /// the thrown error's errno (EIO when it carries none).
    public func seed(through operation: String, _ save: (CaseSecrets) throws -> Void) {
        var status: Int32 = 0
        do {
            try save(secrets)
        } catch {
            let error = error as NSError
            let posix = [error, error.userInfo[NSUnderlyingErrorKey] as? NSError].compactMap { $0 }.first {
                $0.domain == NSPOSIXErrorDomain
            }
            status = posix.map { Int32($0.code) } ?? EIO
        }
        for item in declaration?.secrets ?? [] {
            record(item.label, item.store.location, operation, status, status == 0 ? .written : .failed)
        }
    }
}

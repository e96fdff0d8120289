import Foundation
import SimRuntime

/// Where app code reports what it did to an item: names, operations and statuses, never a value.
///
/// On iOS this is the `KeychainMigration` OSLog category; in an automation launch it is the
/// ``HarnessLaunch``, which turns each entry into an ``SimRuntime/ItemCheck`` of the status file.
public protocol LaunchJournal: Sendable {
    /// Records one item operation.
    /// - Parameters:
    ///   - name: the item's logical name (`authToken`, `session`, `FeedCache.dat`).
    ///   - location: `keychain`, `preferences`, `archive` or `file`.
    ///   - operation: the call whose answer decided the result (`SecItemAdd`, `removeObject`, ...).
    ///   - status: its OSStatus, or an errno-style code for preferences and files (0 for success).
    ///   - result: `written`, `found`, `missing`, `mismatch`, `locked`, `failed`, `removed` or `kept`.
    func record(_ name: String, _ location: StoreLocation, _ operation: String, _ status: Int32, _ result: ItemResult)

    /// Records a failed operation that is not about a single item (a sweep's delete, a marker write).
    func recordError(_ name: String, _ location: StoreLocation, _ operation: String, _ status: Int32)
}

/// A journal that keeps nothing (for code run outside an automation launch).
public struct SilentJournal: LaunchJournal {
    public init() {}
    public func record(_ name: String, _ location: StoreLocation, _ operation: String, _ status: Int32, _ result: ItemResult) {}
    public func recordError(_ name: String, _ location: StoreLocation, _ operation: String, _ status: Int32) {}
}

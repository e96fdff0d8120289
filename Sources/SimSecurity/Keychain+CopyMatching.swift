import Foundation
import SimRuntime

// SecItemCopyMatching.
extension Keychain {
    func copyItems(
        _ queryDictionary: QueryEntries, _ result: UnsafeMutablePointer<CFTypeRef?>?,
        _ store: KeychainStore
    ) throws {
        let query = try QueryParser.parse(queryDictionary)
        try checkEntitlement(query, isRead: true)
        guard query.itemClass != .identity else { throw SecStatusFailure(errSecItemNotFound) }
        let limit = query.limit ?? .one  // row 20
        var filter = filter(for: query)
        if query.returns == .data {
            // An item without data has nothing to return for data alone (row 24; Valet relies on it).
            filter.conditions.append("data IS NOT NULL")
        }
        let rows = try store.select(from: query.itemClass, filter, limit: limit.rowLimit)
        guard !rows.isEmpty else { throw SecStatusFailure(errSecItemNotFound) }  // rows 20, 36
        // Each returned row must be decrypted (even for attributes only, row 34); the first that
        // cannot be stops the call (row 37).
        let view = lockView
        for row in rows where !(row.accessibility?.isAvailable(in: view) ?? false) {
            throw SecStatusFailure(errSecInteractionNotAllowed)
        }
        // The secret of an item with access control needs the user (rows 50-53); its attributes
        // do not. The first row that cannot be read stops the call, as row 37's.
        if query.returns.contains(.data) {
            let canPrompt = canPrompt
            for row in rows {
                guard case .text(let encoded)? = row["accc"],
                    let status = AccessControlCheck.refusal(
                        encoded, canPrompt: canPrompt, biometryGeneration: configuration.biometryGeneration)
                else { continue }
                throw SecStatusFailure(status)
            }
        }
        result?.pointee = resultBuilder.result(for: rows, itemClass: query.itemClass, returns: query.returns, limit: limit)
    }
}

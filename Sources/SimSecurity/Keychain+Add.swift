import Foundation
import SimRuntime

// SecItemAdd: one operation of the keychain, in its own file (GRDB's `Database+…` shape).
extension Keychain {
    func addItem(
        _ attributes: QueryEntries, _ result: UnsafeMutablePointer<CFTypeRef?>?,
        _ store: KeychainStore
    ) throws {
        let query = try QueryParser.parse(Self.expandingKeyReference(attributes))
        // Identities need a SecIdentity reference; passwords cannot be added by reference (row 23);
        // a match limit in an add is refused rather than silently ignored (row 41, our choice).
        guard query.itemClass != .identity, !query.valueRef, query.persistentRef == nil,
            query.limit == nil, !query.otherMatchKeys
        else { throw SecStatusFailure(errSecParam) }
        if case .some(.none) = query.valueData { throw SecStatusFailure(errSecParam) }  // row 25
        let synchronizable: Bool
        switch query.sync {
        case .any: throw SecStatusFailure(errSecParam)
        case .syncedOnly: synchronizable = true
        case .localOnly, nil: synchronizable = false
        }
        let accessibility = try resolvedAccessibility(query, default: query.itemClass.defaultAccessibility)
        // Items with access control are not synchronizable (the client's check). ThisDeviceOnly
        // with sync is accepted: securityd has no such check (row 14; the seed said errSecParam,
        // and where the seeds and iOS disagree, iOS wins).
        if synchronizable && query.accessControl != nil {
            throw SecStatusFailure(errSecParam)
        }
        try checkEntitlement(query, isRead: false)
        if accessibility == .whenPasscodeSetThisDeviceOnly && !configuration.passcodeSet {
            throw SecStatusFailure(errSecAuthFailed)  // row 40
        }
        // The class key is needed to encrypt: the lock error wins over a duplicate (row 35).
        guard accessibility.isAvailable(in: lockView) else { throw SecStatusFailure(errSecInteractionNotAllowed) }

        let now = SQLiteValue.real(configuration.clock().timeIntervalSinceReferenceDate)
        var row = NewRow(query.itemClass)
        let layout = row.layout
        for spec in query.itemClass.primaryKey { row[spec.column] = spec.defaultValue }  // row 4
        row[layout.cdat] = now
        row[layout.mdat] = now
        for (spec, value) in query.attributes { row[spec.column] = value }
        row[layout.agrp] = .text(query.accessGroup ?? accessGroups[0])  // row 7
        row[layout.sync] = .integer(synchronizable ? 1 : 0)
        row[layout.pdmn] = .text(accessibility.rawValue)
        if case .some(.some(let data)) = query.valueData { row[layout.data] = .blob(data) }
        if let control = query.accessControl {
            row[layout.accc] = .text(AccessControlCoding.encode(control, biometryGeneration: configuration.biometryGeneration))
        }
        let rowid: Int64
        do {
            rowid = try store.insert(row)
        } catch {
            throw Self.duplicateIfConstraint(error)  // row 5
        }
        guard !query.returns.isEmpty else { return }
        result?.pointee = resultBuilder.result(
            for: [row.stored(rowid: rowid)], itemClass: query.itemClass, returns: query.returns, limit: .one)
    }

    /// An add by `kSecValueRef` of a ``SecKey`` stores the key's bytes (`kSecValueData`) and its
    /// key-class attributes, as Security's client merges the reference's attributes into the add;
    /// attributes the caller gives win. Any other entries pass unchanged.
    static func expandingKeyReference(_ entries: QueryEntries) -> QueryEntries {
        // Through `Any`: a dictionary holds a Swift class that is no NSObject in a box, which only
        // a cast from `Any` opens.
        guard let reference = entries.pairs.first(where: { $0.key == "v_Ref" }), let key = reference.value.any as? SecKey
        else { return entries }
        var merged = key.itemAttributes
        merged["v_Data"] = key.bytes
        for (name, value) in entries.pairs where name != "v_Ref" { merged[name] = value.any }
        return QueryEntries(NSDictionary(dictionary: merged))
    }

    /// A key collision is errSecDuplicateItem (rows 5 and 29); other SQLite errors pass on.
    static func duplicateIfConstraint(_ error: SQLiteError) -> any Error {
        error.isKeyCollision ? SecStatusFailure(errSecDuplicateItem) : error
    }

    /// The protection class an add or update asks for: from its access control, else from
    /// `kSecAttrAccessible`, else `fallback`. Both, disagreeing, is errSecParam.
    func resolvedAccessibility(
        _ query: ParsedQuery, default fallback: Accessibility?
    ) throws(SecStatusFailure) -> Accessibility {
        if let control = query.accessControl {
            guard let fromControl = Accessibility(rawValue: control.protection) else { throw SecStatusFailure(errSecParam) }
            if let explicit = query.accessibility, explicit != fromControl { throw SecStatusFailure(errSecParam) }
            return fromControl
        }
        if let explicit = query.accessibility { return explicit }
        guard let fallback else { throw SecStatusFailure(errSecParam) }
        return fallback
    }
}

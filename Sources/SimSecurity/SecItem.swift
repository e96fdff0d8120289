import Foundation

// Apple's four keychain functions. Each acts on `Keychain.current`: see `Keychain` for how a
// test or a launched app chooses the store, identity, lock state and runtime.

/// Adds an item to the keychain.
/// - Parameters:
///   - attributes: the item's class, attributes and value (`kSecValueData`), plus optional return keys.
///   - result: receives what the return keys ask for; may be nil.
/// - Returns: `errSecSuccess`, or the reason the item was not added (`errSecDuplicateItem`, ...).
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    Keychain.current.add(attributes, result)
}

/// Finds items matching a query and returns what its return keys ask for.
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    Keychain.current.copyMatching(query, result)
}

/// Changes the attributes (and value) of every item matching a query.
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    Keychain.current.update(query, attributesToUpdate)
}

/// Deletes every item matching a query.
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    Keychain.current.delete(query)
}

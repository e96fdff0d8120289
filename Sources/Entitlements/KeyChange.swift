/// How one entitlement key differs between the old and the new build.
public struct KeyChange: Sendable, Equatable, Encodable {
    /// Whether the key appeared, disappeared or changed value.
    public enum Kind: String, Sendable, Encodable {
        /// The key is only in the new build.
        case added
        /// The key is only in the old build.
        case removed
        /// The key is in both, with different values.
        case changed
    }

    /// The entitlement key.
    public let key: String
    /// Added, removed or changed.
    public let kind: Kind
    /// The old value, absent when the key was added.
    public let old: PlistValue?
    /// The new value, absent when the key was removed.
    public let new: PlistValue?
    /// For arrays: elements of the new value that the old one lacks, in the new order.
    public let elementsAdded: [PlistValue]
    /// For arrays: elements of the old value that the new one lacks, in the old order.
    public let elementsRemoved: [PlistValue]
    /// For arrays: whether the elements both hold appear in a different order.
    public let orderChanged: Bool

    enum CodingKeys: String, CodingKey {
        case key, kind, old, new, elementsAdded, elementsRemoved, orderChanged
    }

    /// Encodes the element-wise fields only for arrays that changed, so scalar changes stay short.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(kind, forKey: .kind)
        try container.encodeIfPresent(old, forKey: .old)
        try container.encodeIfPresent(new, forKey: .new)
        if case .array? = old, case .array? = new {
            try container.encode(elementsAdded, forKey: .elementsAdded)
            try container.encode(elementsRemoved, forKey: .elementsRemoved)
            try container.encode(orderChanged, forKey: .orderChanged)
        }
    }

    /// Every key that differs between `old` and `new`, sorted by key.
    public static func changes(from old: Entitlements, to new: Entitlements) -> [KeyChange] {
        let keys = Set(old.values.keys).union(new.values.keys).sorted()
        return keys.compactMap { key in
            let before = old.values[key]
            let after = new.values[key]
            switch (before, after) {
            case (nil, let value?):
                return KeyChange(
                    key: key, kind: .added, old: nil, new: value, elementsAdded: [], elementsRemoved: [], orderChanged: false)
            case (let value?, nil):
                return KeyChange(
                    key: key, kind: .removed, old: value, new: nil, elementsAdded: [], elementsRemoved: [], orderChanged: false)
            case (let before?, let after?) where before != after:
                guard case .array(let a) = before, case .array(let b) = after else {
                    return KeyChange(
                        key: key, kind: .changed, old: before, new: after, elementsAdded: [], elementsRemoved: [],
                        orderChanged: false)
                }
                let commonInOld = a.filter { b.contains($0) }
                let commonInNew = b.filter { a.contains($0) }
                return KeyChange(
                    key: key, kind: .changed, old: before, new: after,
                    elementsAdded: b.filter { !a.contains($0) }, elementsRemoved: a.filter { !b.contains($0) },
                    orderChanged: commonInOld != commonInNew)
            default:
                return nil
            }
        }
    }
}

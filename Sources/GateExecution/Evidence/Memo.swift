import Foundation

/// Values a process makes once for each key and shares between its cells' threads.
final class Memo<Key: Hashable & Sendable, Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]

    /// The value for `key`, made by `make` the first time (outside the lock: two threads asking at
    /// once may both make it, and the first one kept is the one every later caller gets).
    func value(_ key: Key, _ make: () -> Value) -> Value {
        if let known = lock.withLock({ values[key] }) { return known }
        let made = make()
        return lock.withLock {
            if let known = values[key] { return known }
            values[key] = made
            return made
        }
    }
}

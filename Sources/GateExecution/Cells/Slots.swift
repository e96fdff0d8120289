import Foundation
import GateModel

/// One slot per index, filled in side by side (`DispatchQueue.concurrentPerform`) and read once
/// every worker is done: pinning, staging and preflight keep their answers in build-id order this
/// way, so that the error reported is the first build's whatever finished first.
final class Slots<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value?]

    init(count: Int) { stored = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: Value) { lock.withLock { stored[index] = value } }

    var values: [Value?] { lock.withLock { stored } }
}

extension Slots {
    /// `transform` of each of `items`, side by side; the first error in `items`' order is the one
    /// thrown, whatever finished first.
    static func map<Item: Sendable, Success, Failure: Error>(
        _ items: [Item], _ transform: @Sendable (Item) throws(Failure) -> Success
    ) throws(Failure) -> [Success] where Value == Result<Success, Failure> {
        let slots = Slots(count: items.count)
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            slots.set(index, Result { () throws(Failure) in try transform(items[index]) })
        }
        var results: [Success] = []
        for slot in slots.values { results.append(try slot!.get()) }
        return results
    }
}

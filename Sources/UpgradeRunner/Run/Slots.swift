import Foundation

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

import Foundation

/// A random-number generator reference, as `SecRandomCopyBytes` takes it.
public typealias SecRandomRef = OpaquePointer

/// The default generator: the system's cryptographically secure source.
public nonisolated(unsafe) let kSecRandomDefault: SecRandomRef? = nil

/// Fills `bytes` with `count` cryptographically secure random bytes.
/// - Returns: `errSecSuccess`, or `errSecParam` for a negative count or a generator other than
///   ``kSecRandomDefault``.
public func SecRandomCopyBytes(_ rnd: SecRandomRef?, _ count: Int, _ bytes: UnsafeMutableRawPointer) -> Int32 {
    guard rnd == nil, count >= 0 else { return errSecParam }
    // SystemRandomNumberGenerator reads getrandom(2) on Linux, as arc4random does on Apple's systems.
    var generator = SystemRandomNumberGenerator()
    var offset = 0
    while offset < count {
        let word = generator.next()
        let chunk = min(8, count - offset)
        withUnsafeBytes(of: word) { bytes.advanced(by: offset).copyMemory(from: $0.baseAddress!, byteCount: chunk) }
        offset += chunk
    }
    return errSecSuccess
}

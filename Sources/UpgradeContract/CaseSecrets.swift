import Foundation

/// The secret values of one test case, one per label a build declares: random-looking, different
/// for every case and label, and the same every time for the same case id, label and shape. So the
/// build that seeds and the build that verifies (separate processes, separate releases) agree on
/// them without ever writing them down, and the runner can look for them in every artifact.
///
/// Each value derives from the case id, the label and the label's ``SecretShape`` alone (FNV-1a of
/// them into SplitMix64), so declaring a new label changes no other label's value. The shapes come
/// from the launch arguments (``SecretShape/argument``); a label without one is ``SecretShape/alnum``,
/// whose values are the ones every case had before shapes existed.
///
/// Two accessors: ``data(_:)`` gives the bytes, whatever the shape; the subscript gives text, and a
/// value that is not UTF-8 (``SecretShape/bytes``) has none. Asked for such a value as text, it
/// answers the label's ``SecretShape/alnum`` value instead and notes the label
/// (``textReadsOfBytes``): the app then seeds and verifies the alnum value, and the runner says in
/// the cell's note that the shape was skipped for that label, rather than judging a String API for
/// what it cannot hold.
public struct CaseSecrets: Hashable, Sendable {
    public let caseID: String
    /// Each label's shape; a label absent from it is ``SecretShape/alnum``.
    public let shapes: [String: SecretShape]
    private let notes: TextReads?

    /// The secrets of `caseID`, every label ``SecretShape/alnum`` unless `shapes` says otherwise.
    public init(caseID: String, shapes: [String: SecretShape] = [:]) {
        self.caseID = caseID
        self.shapes = shapes
        notes = nil
    }

    /// The secrets of `caseID` in the shapes a launch's `arguments` give (``SecretShape/argument``),
    /// noting every label whose non-UTF-8 value is asked for as text.
    public init(caseID: String, arguments: [String]) {
        self.caseID = caseID
        shapes = SecretShape.shapes(in: arguments)
        notes = TextReads()
    }

    /// The shape of `label` in this case.
    public func shape(_ label: String) -> SecretShape { shapes[label] ?? .alnum }

    /// The value of the secret `label` as text. For a value that is not UTF-8, the label's
    /// ``SecretShape/alnum`` value, and the label is noted in ``textReadsOfBytes``.
    public subscript(_ label: String) -> String {
        let shape = shape(label)
        guard shape.isUTF8 else {
            notes?.insert(label)
            return String(decoding: Self.value(caseID: caseID, label: label, shape: .alnum), as: UTF8.self)
        }
        return String(decoding: data(label), as: UTF8.self)
    }

    /// The value of `label` as bytes, as a keychain item or a file holds it (UTF-8 for a text shape).
    public func data(_ label: String) -> Data { Self.value(caseID: caseID, label: label, shape: shape(label)) }

    /// The labels whose value is not UTF-8 and was asked for as text (the subscript), sorted: the
    /// app got their ``SecretShape/alnum`` value instead. Empty for secrets made without launch arguments.
    public var textReadsOfBytes: [String] { notes?.labels ?? [] }

    /// The value a read of `label` that got `value` is judged against: the label's value, or, for
    /// a value that is not UTF-8, its ``SecretShape/alnum`` value when that is what was read (a
    /// build that asked for the value as text got that one, in this launch or an earlier one).
    public func expected(_ label: String, matching value: Data?) -> Data {
        let shape = shape(label)
        let fallback = Self.value(caseID: caseID, label: label, shape: .alnum)
        return !shape.isUTF8 && value == fallback ? fallback : data(label)
    }

    /// Each of `labels` with its value as text, in the order given.
    public func labelled(_ labels: [String]) -> [(label: String, value: String)] {
        labels.map { ($0, self[$0]) }
    }

    /// The value of `label` in `shape` for case `caseID`. ``SecretShape/alnum`` is seeded as every
    /// value was before shapes existed; every other shape by the shape's name too, so that each
    /// shape's value is independent of the others'. The composed and decomposed shapes share a seed:
    /// they are one text in two normal forms.
    public static func value(caseID: String, label: String, shape: SecretShape) -> Data {
        let seedShape: SecretShape = shape == .unicodeDecomposed ? .unicodeComposed : shape
        let key = caseID + "\u{0}" + label + (shape == .alnum ? "" : "\u{0}" + seedShape.rawValue)
        return shape.value(seed: fnv1a(key))
    }

    /// A new random case id (used when none is given): 12 lowercase hex digits.
    public static func randomCaseID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(format: "%012llx", generator.next() & 0xFFFF_FFFF_FFFF)
    }

    package static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    public static func == (lhs: CaseSecrets, rhs: CaseSecrets) -> Bool {
        lhs.caseID == rhs.caseID && lhs.shapes == rhs.shapes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(caseID)
        hasher.combine(shapes)
    }
}

/// The labels a launch asked for as text while their value is not UTF-8 (shared by every copy of
/// the launch's ``CaseSecrets``).
private final class TextReads: @unchecked Sendable {
    private var asked: Set<String> = []
    private let lock = NSLock()

    func insert(_ label: String) { lock.withLock { _ = asked.insert(label) } }
    var labels: [String] { lock.withLock { asked.sorted() } }
}

/// A small, fast, seedable generator (Steele, Lea and Flood's SplitMix64).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

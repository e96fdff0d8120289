/// A one-line reason why an input could not be read, naming the file and what was wrong with it.
public struct EntitlementsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, folder or build id the problem is in, as the user named it.
    public let file: String
    /// What was wrong, in a few words (no trailing period).
    public let problem: String
    /// False for an error about no file, which prints `problem` alone.
    private let namesFile: Bool

    /// Makes an error for `file` saying `problem`.
    public init(_ file: String, _ problem: String) {
        self.file = file
        self.problem = problem
        self.namesFile = true
    }

    /// Makes an error about no file (a value the caller passed, such as an item count), printed as `problem` alone.
    public init(problem: String) {
        self.file = ""
        self.problem = problem
        self.namesFile = false
    }

    /// `file: problem`, on one line (`problem` alone when no file is named).
    public var description: String {
        let flat = problem.replacingOccurrences(of: "\n", with: " ")
        return namesFile ? "\(file): \(flat)" : flat
    }
}

extension String {
    /// `0x1f`-style hex, for offsets and magics in error messages.
    static func hex<T: BinaryInteger>(_ value: T) -> String { "0x" + String(value, radix: 16) }
}

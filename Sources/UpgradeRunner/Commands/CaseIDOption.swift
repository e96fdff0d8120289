import SimRuntime

extension Invocation {
    /// `--case-id`: 1 to ``maximumCaseIDLength`` ASCII letters, digits, `-` and `_`, starting with a
    /// letter or digit (it becomes a launch argument, a part of service and account names and of
    /// file names, so it may not start with `-`); random when not given.
    func caseID() throws(UsageError) -> String {
        guard let given = option("--case-id") else { return CaseSecrets.randomCaseID() }
        return try Self.validCaseID(given)
    }

    /// The longest case id: enough for a CI run id with a prefix, short enough for the keychain
    /// account names and file names it becomes part of.
    static let maximumCaseIDLength = 64

    static func validCaseID(_ text: String) throws(UsageError) -> String {
        let bytes = Array(text.utf8)
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard let first = bytes.first, isAlphanumeric(first),
            bytes.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else {
            throw .invalidValue(
                text, for: "--case-id", reason: "must be ASCII letters, digits, - and _, starting with a letter or digit")
        }
        guard bytes.count <= maximumCaseIDLength else {
            throw .invalidValue(text, for: "--case-id", reason: "is longer than \(maximumCaseIDLength) characters")
        }
        return text
    }
}

import SimRuntime

extension Invocation {
    /// `--case-id`: ASCII letters and digits, then also `-` and `_` (it becomes a launch argument
    /// and a part of service and account names, so it may not start with `-`); random when not given.
    func caseID() throws(UsageError) -> String {
        guard let given = option("--case-id") else { return CaseSecrets.randomCaseID() }
        return try Self.validCaseID(given)
    }

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
        return text
    }
}

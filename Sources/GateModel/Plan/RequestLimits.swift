import UpgradeContract

/// The limits of a gate's request that do not depend on its builds: the case id's spelling, the
/// number of parallel cells and the launch timeout. The command line and a Swift caller's request
/// are checked against these same rules.
package enum RequestLimits {
    /// The longest case id: enough for a CI run id with a prefix, short enough for the keychain
    /// account names and file names it becomes part of.
    package static let caseIDLength = 64
    /// Cells run in parallel.
    package static let jobs = 1...64
    /// Seconds before a hanging app launch is killed.
    package static let timeout = 1...3600

    /// What is wrong with `text` as a case id, or nil: 1 to ``caseIDLength`` ASCII letters, digits,
    /// `-` and `_`, starting with a letter or digit (it becomes a launch argument, a part of service
    /// and account names and of file names, so it may not start with `-`).
    package static func caseIDProblem(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard let first = bytes.first, isAlphanumeric(first),
            bytes.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return "must be ASCII letters, digits, - and _, starting with a letter or digit" }
        guard bytes.count <= caseIDLength else { return "is longer than \(caseIDLength) characters" }
        return nil
    }

    /// What is wrong with `jobs` as a number of parallel cells, or nil.
    package static func jobsProblem(_ jobs: Int) -> String? {
        Self.jobs.contains(jobs) ? nil : "is not a whole number from \(Self.jobs.lowerBound) to \(Self.jobs.upperBound)"
    }

    /// What is wrong with `timeout` as seconds before a hanging launch is killed, or nil.
    package static func timeoutProblem(_ timeout: Double) -> String? {
        Double(Self.timeout.lowerBound) <= timeout && timeout <= Double(Self.timeout.upperBound)
            ? nil : "is not a number of seconds from \(Self.timeout.lowerBound) to \(Self.timeout.upperBound)"
    }

    /// Checks a request's case id, jobs and timeout.
    /// - Throws: ``GateError/invalidValue(field:value:reason:)`` naming the first field that is out of bounds.
    package static func check(caseID: String, jobs: Int, timeout: Double) throws(GateError) {
        if let reason = caseIDProblem(caseID) { throw .invalidValue(field: .caseID, value: caseID, reason: reason) }
        if let reason = jobsProblem(jobs) { throw .invalidValue(field: .jobs, value: String(jobs), reason: reason) }
        if let reason = timeoutProblem(timeout) { throw .invalidValue(field: .timeout, value: String(timeout), reason: reason) }
    }
}

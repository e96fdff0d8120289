import SimDevice

/// The exit codes of DESIGN.md, and the one function that turns an error into a message and a code.
public enum ExitStatus {
    public static let pass: Int32 = 0
    public static let fail: Int32 = 1
    public static let usage: Int32 = 2
    public static let unknown: Int32 = 3

    /// The one-line message and exit code for `error`.
    public static func report(_ error: any Error) -> (message: String, code: Int32) {
        switch error {
        case let error as UsageError: (error.description, usage)
        case let error as DeviceError: (error.description, error.exitCode)
        case let error as GateError: (error.description, error.exitCode)
        case let error as CommandFailure: (error.message, error.code)
        default: ("\(error)", unknown)
        }
    }
}

/// A command that ran and did not succeed, with the message and exit code to report.
struct CommandFailure: Error {
    var message: String
    var code: Int32
}

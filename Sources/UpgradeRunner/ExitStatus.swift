import Entitlements
import GateExecution
import GateModel
import SimDevice

/// The exit codes (docs/architecture.md, "Errors and exit codes"), and the one function that turns an error into a message and a code.
///
/// | code | meaning |
/// | --- | --- |
/// | 0 | pass (`entitlements diff`: the new build reaches everything the old one could) |
/// | 1 | the gate FAILs (or `launch`: the app exited non-zero; `entitlements diff`: items become unreachable) |
/// | 2 | bad usage or input: a ``UsageError``, an ``EntitlementsError``, a ``DeviceError`` or ``GateError`` about what the user named |
/// | 3 | the run could not complete: a ``DeviceError`` or ``GateError`` that is an environment failure (a failed spawn, a file operation, an interruption), or any other error |
public enum ExitStatus {
    public static let pass: Int32 = 0
    public static let fail: Int32 = 1
    public static let usage: Int32 = 2
    public static let unknown: Int32 = 3

    /// The one-line message and exit code for `error`: every command path (``Tool/run(_:)``, the
    /// per-folder problems of `builds` and `device list`) reports through this.
    /// The message is one line whatever it echoes: a control character in a value the user gave
    /// (a newline or ESC in `--out`, in a build id, in a file's field) is escaped here, once for
    /// every error type.
    public static func report(_ error: any Error) -> (message: String, code: Int32) {
        let (message, code) = unescapedReport(error)
        return (QuotedValue.oneLine(message), code)
    }

    private static func unescapedReport(_ error: any Error) -> (message: String, code: Int32) {
        switch error {
        case let error as UsageError: (error.description, usage)
        case let error as EntitlementsError: (error.description, usage)
        case let error as DeviceError: (error.description, error.isEnvironmentFailure ? unknown : usage)
        case let error as GateError: (error.commandLineDescription, error.isEnvironmentFailure ? unknown : usage)
        case let error as CommandFailure: (error.message, error.code)
        case let error as ReplayError: (error.description, usage)
        default: ("\(error)", unknown)
        }
    }

    /// For a listing that goes on past what it cannot read (`builds`, `device list`): prints each
    /// problem as an `error: ` line and returns the exit code, 0 with none, else the highest of theirs.
    static func report(problems: [any Error], to console: Console) -> Int32 {
        let reports = problems.map(report)
        for (message, _) in reports { console.error("error: " + message) }
        return reports.map(\.code).max() ?? pass
    }
}

/// A command that ran and did not succeed, with the message and exit code to report.
struct CommandFailure: Error {
    var message: String
    var code: Int32
}

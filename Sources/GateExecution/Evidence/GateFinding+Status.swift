import GateModel
import SimSecurity

extension GateFinding {
    /// `-25308 (errSecInteractionNotAllowed)`, or the bare number for a code Apple does not name.
    public static func statusText(_ status: Int32) -> String { SecurityStatus(status).description }
}

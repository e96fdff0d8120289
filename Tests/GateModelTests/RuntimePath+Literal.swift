import GateModel

extension RuntimePath {
    /// The path a test names by its id (`.id("v1-to-v2")`, `.id("iOS-15.0/v1-to-v2")`).
    static func id(_ id: String) -> RuntimePath {
        guard let path = RuntimePath(id: id) else { preconditionFailure("\(id) is not a path id") }
        return path
    }
}

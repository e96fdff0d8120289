import Foundation

/// Where a path really points, for telling whether an output lands inside an input: the longest
/// part of it that exists with every symbolic link resolved (`realpath`), then the rest with `.`
/// and `..` applied by name (a part that does not exist yet cannot be a link).
package enum ResolvedPath {
    /// The resolved form of the absolute path `path`.
    package static func of(_ path: String) -> String {
        var parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var rest: [String] = []
        while true {
            let prefix = "/" + parts.joined(separator: "/")
            if let real = realpath(prefix, nil) {
                defer { free(real) }
                var resolved = String(cString: real).split(separator: "/").map(String.init)
                for part in rest.reversed() {
                    switch part {
                    case ".": continue
                    case "..": if !resolved.isEmpty { resolved.removeLast() }
                    default: resolved.append(part)
                    }
                }
                return "/" + resolved.joined(separator: "/")
            }
            guard let last = parts.popLast() else { return path }
            rest.append(last)
        }
    }

    /// Whether `inner` is `outer` or lies inside it, both resolved.
    package static func isSame(_ inner: String, orInside outer: String) -> Bool {
        let inner = of(inner), outer = of(outer)
        return inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }
}

import Foundation
import SimRuntime

// The iOS Foundation calls that corelibs Foundation lacks, with iOS's answers on a simulated device.
// App code reaches them with `import SimPlatform` on Linux (docs/own-app.md).

extension FileManager {
    /// The shared container of an app group the app is entitled to, as on iOS; nil for any other
    /// group, and outside a launch on a simulated device.
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        LaunchContext.current?.appGroupContainers[groupIdentifier].map { URL(fileURLWithPath: $0, isDirectory: true) }
    }
}

extension UserDefaults {
    /// Key-value coding's setter, which iOS code calls on defaults (corelibs has no key-value coding):
    /// the same as `set(_:forKey:)`.
    public func setValue(_ value: Any?, forKey key: String) { set(value, forKey: key) }
}

internal import CPreferences
import Foundation
import SimRuntime

/// Foundation's own `UserDefaults` on the simulated device: `UserDefaults.standard` and
/// `UserDefaults(suiteName:)` read and write the device's preference stores (``Preferences``), as
/// cfprefsd does on iOS.
///
/// - `UserDefaults.standard` is the app's `Library/Preferences/<bundle id>.plist`; a suite named
///   after an app group the app is entitled to is the group's `Library/Preferences/<group>.plist`;
///   any other suite is `Library/Preferences/<suite>.plist` in the app's container, as on iOS.
/// - Every `set` and `removeObject` is stored before it returns (no `synchronize()` needed), so a
///   value survives the app's crash; it passes through the seam as `preferences.write`, so it is
///   counted, can be faulted and is a crash point, as the harness's own preference writes are.
/// - The launch arguments' domain is UserDefaults' own (`-Key value`), as on iOS.
///
/// It works in a statically linked app build linked with `--wrap` for the four CFPreferences calls
/// of `UserDefaults` (Package.swift's `appBuildLinking`); the first preference call of the process
/// routes them, from the launch context. In an executable linked without the wraps,
/// `UserDefaults` stays corelibs' own: the launch steers its file to the same place
/// (`XDG_CONFIG_HOME`, and the bundle id from the installed `Info.plist`), but it writes only on
/// `synchronize()` and its writes are not counted.
public enum FoundationDefaults {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var platform: Platform?
    nonisolated(unsafe) private static var domains: [String: Preferences] = [:]

    /// Routes `UserDefaults` to `platform`'s preference stores from now on. Harmless when the
    /// executable was linked without the wraps.
    public static func route(to platform: Platform) {
        lock.withLock {
            Self.platform = platform
            domains = [:]
        }
        cpreferences_install(copyHook, setHook, copyAllHook)
    }

    /// Whether a `UserDefaults` call of this process has gone through the wraps (false until one is made).
    public static var isWrapped: Bool { cpreferences_wrapped() != 0 }

    /// The store of a domain: the app's own (`isCurrent`, or the bundle id), an entitled group's, or a plain suite's.
    static func store(for application: UnsafeRawPointer, isCurrent: Int32) -> Preferences? {
        let name = isCurrent != 0 ? nil : string(application)
        return lock.withLock { () -> Preferences? in
            guard let platform else { return nil }
            let domain = name ?? platform.context.bundleID
            if let known = domains[domain] { return known }
            let store: Preferences
            if domain == platform.context.bundleID {
                store = platform.preferences
            } else if let group = platform.preferences(suiteName: domain) {
                store = group
            } else {
                store = platform.preferences(domain: domain, file: platform.containers.preferencesFile(domain: domain))
            }
            domains[domain] = store
            return store
        }
    }

    private static let copyHook: cpreferences_copy_hook = { key, application, isCurrent in
        guard let store = store(for: application, isCurrent: isCurrent), let name = string(key),
            let value = store.persistentDomain()[name]
        else { return nil }
        return retained(foundationObject(value))
    }

    private static let setHook: cpreferences_set_hook = { key, value, application, isCurrent in
        guard let store = store(for: application, isCurrent: isCurrent), let name = string(key) else { return }
        store.set(value.flatMap { plistValue(Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue()) }, forKey: name)
    }

    private static let copyAllHook: cpreferences_copy_all_hook = { application, isCurrent in
        guard let store = store(for: application, isCurrent: isCurrent) else { return nil }
        return retained(foundationObject(store.persistentDomain()))
    }

    private static func string(_ pointer: UnsafeRawPointer) -> String? {
        Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? String
    }

    private static func retained(_ object: AnyObject?) -> UnsafeRawPointer? {
        object.map { UnsafeRawPointer(Unmanaged.passRetained($0).toOpaque()) }
    }

    /// A Foundation object as a property-list value of Swift types (what ``Preferences`` stores).
    static func plistValue(_ object: AnyObject) -> Any? {
        switch object {
        case let number as NSNumber: number
        case let text as NSString: text as String
        case let data as NSData: Data(referencing: data)
        case let date as NSDate: Date(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let array as NSArray: array.map { plistValue($0 as AnyObject) as Any }
        case let dictionary as NSDictionary:
            Dictionary(
                uniqueKeysWithValues: dictionary.compactMap { key, value -> (String, Any)? in
                    guard let key = key as? String, let value = plistValue(value as AnyObject) else { return nil }
                    return (key, value)
                })
        default: nil
        }
    }

    /// A property-list value as the Foundation object CFPreferences would hand UserDefaults.
    static func foundationObject(_ value: Any) -> AnyObject? {
        switch value {
        case let number as NSNumber: number
        case let bool as Bool: NSNumber(value: bool)
        case let int as Int: NSNumber(value: int)
        case let double as Double: NSNumber(value: double)
        case let text as String: NSString(string: text)
        case let data as Data: NSData(data: data)
        case let date as Date: NSDate(timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate)
        case let array as [Any]: NSArray(array: array.compactMap(foundationObject))
        case let dictionary as [AnyHashable: Any]:
            NSDictionary(
                dictionary: Dictionary(
                    uniqueKeysWithValues: dictionary.compactMap { key, value -> (AnyHashable, Any)? in
                        guard let key = key.base as? String, let object = foundationObject(value) else { return nil }
                        return (AnyHashable(key), object)
                    }))
        default: nil
        }
    }
}

/// Called by the wraps at the process's first preference call when nothing routed them yet: a
/// launched app's `UserDefaults` then reaches the device even before its code asks for the platform.
/// `Platform.launched()` routes them (and starts file supervision); a process that was not launched
/// keeps corelibs' own defaults, and one whose file supervisor the kernel refuses ends here, as
/// `Harness.main` ends it: a launch never runs quietly without its file crash points.
@_cdecl("simplatform_route_preferences")
public func simplatformRoutePreferences() {
    do {
        _ = try Platform.launched()
    } catch .notLaunched {
        return
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(error.exitCode)
    }
}

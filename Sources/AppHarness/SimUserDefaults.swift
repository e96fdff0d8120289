import Foundation
import SimPlatform
import SimRuntime

/// `UserDefaults` for app code on a simulated device, with UserDefaults' own method signatures for
/// what migrations call, so that code written for iOS compiles against it through one typealias:
///
/// ```swift
/// #if canImport(UIKit)
/// typealias AppUserDefaults = UserDefaults
/// #else
/// import AppHarness
/// typealias AppUserDefaults = SimUserDefaults
/// #endif
/// ```
///
/// Reads see the launch arguments' domain over the stored values, as on iOS; writes go through the
/// device's seam (counted, faulted, crash points), and a write the store refuses is lost silently,
/// as UserDefaults gives no error either.
public final class SimUserDefaults: @unchecked Sendable {
    let store: any AppDefaults

    /// The defaults of `store` (an app's preferences, or an app group's).
    public init(_ store: any AppDefaults) { self.store = store }

    /// `UserDefaults.standard`: the launched app's own preferences. Outside a harness launch, an
    /// app's defaults that keep nothing.
    public static var standard: SimUserDefaults {
        Harness.currentEnvironment.map { SimUserDefaults($0.defaults) } ?? SimUserDefaults(EmptyDefaults())
    }

    /// `UserDefaults(suiteName:)`: an app group's preferences, nil for a group the app is not entitled to.
    public convenience init?(suiteName: String?) {
        guard let suiteName else {
            self.init(SimUserDefaults.standard.store)
            return
        }
        guard let environment = Harness.currentEnvironment, let store = environment.suiteDefaults(suiteName) else {
            return nil
        }
        self.init(store)
    }

    public func object(forKey defaultName: String) -> Any? { store.object(forKey: defaultName) }
    public func string(forKey defaultName: String) -> String? { store.string(forKey: defaultName) }
    public func data(forKey defaultName: String) -> Data? { store.data(forKey: defaultName) }
    public func integer(forKey defaultName: String) -> Int { store.integer(forKey: defaultName) }
    public func bool(forKey defaultName: String) -> Bool { store.bool(forKey: defaultName) }
    public func array(forKey defaultName: String) -> [Any]? { store.array(forKey: defaultName) }
    public func dictionary(forKey defaultName: String) -> [String: Any]? { store.dictionary(forKey: defaultName) }
    public func stringArray(forKey defaultName: String) -> [String]? { store.array(forKey: defaultName) as? [String] }
    public func double(forKey defaultName: String) -> Double {
        (store.object(forKey: defaultName) as? NSNumber)?.doubleValue ?? 0
    }

    public func set(_ value: Any?, forKey defaultName: String) { store.set(value, forKey: defaultName) }
    public func set(_ value: Int, forKey defaultName: String) { store.set(value, forKey: defaultName) }
    public func set(_ value: Bool, forKey defaultName: String) { store.set(value, forKey: defaultName) }
    public func set(_ value: Double, forKey defaultName: String) { store.set(value, forKey: defaultName) }
    public func removeObject(forKey defaultName: String) { store.removeObject(forKey: defaultName) }

    /// Writes are immediate here; as on iOS, there is nothing to wait for.
    @discardableResult public func synchronize() -> Bool { true }

    /// The stored values of the app's domain, without the argument domain.
    public func persistentDomain(forName domainName: String) -> [String: Any]? { store.persistentDomain() }
}

/// Defaults that keep nothing (``SimUserDefaults/standard`` outside a launch).
final class EmptyDefaults: AppDefaults, @unchecked Sendable {
    func object(forKey key: String) -> Any? { nil }
    func string(forKey key: String) -> String? { nil }
    func bool(forKey key: String) -> Bool { false }
    func set(_ value: Any?, forKey key: String) -> Bool { false }
    func removeObject(forKey key: String) -> Bool { false }
    func persistentDomain() -> [String: Any] { [:] }
}

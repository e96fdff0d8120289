import Foundation
import UpgradeContract

/// Reads a launch context's JSON without `JSONDecoder`: every launched app reads one before its
/// code runs, and `JSONDecoder` spent most of its time there on the Swift runtime's first-use work
/// for the context's types (generic metadata, and a scan of every protocol conformance record of
/// the static executable for each type it asks about), a sixth of a small app's launch
/// (docs/benchmarks.md).
///
/// It takes only what the runner's encoder writes: plain JSON, integers without a fraction or an
/// exponent where the context holds an integer, no duplicate keys. Anything else (and any value of
/// the wrong shape) answers nil, and ``LaunchContext/decode(_:)`` hands the text to `JSONDecoder`,
/// which reads it or names what is wrong, as before. Keys the context does not know are skipped,
/// as `JSONDecoder` skips them. `SimRuntimeTests` compares the two readers.
enum LaunchContextReader {
    /// The context in `text`, or nil when this reader does not take it.
    static func read(_ text: String) -> LaunchContext? {
        var text = text
        return text.withUTF8 { bytes -> LaunchContext? in
            guard var parser = Parser(bytes: bytes), let value = parser.document() else { return nil }
            return context(value)
        }
    }

    typealias Value = JSONValue
    typealias Parser = JSONParser

    // MARK: The context's fields

    /// An optional field as `decodeIfPresent` reads it (``JSONValue/optional(_:_:)``).
    private static func optional<T>(_ value: Value?, _ read: (Value) -> T?) -> T?? { Value.optional(value, read) }

    static func context(_ value: Value) -> LaunchContext? {
        guard let fields = value.object,
            let udid = fields["udid"]?.string,
            let deviceDirectory = fields["deviceDirectory"]?.string,
            let bundleID = fields["bundleID"]?.string,
            let identity = fields["identity"].flatMap(identity),
            let runtime = fields["runtime"]?.string.flatMap(runtimeVersion),
            let keychainPath = fields["keychainPath"]?.string,
            let dataContainer = fields["dataContainer"]?.string,
            let groups = fields["appGroupContainers"]?.object,
            let lockStatePath = fields["lockStatePath"]?.string,
            let clock = fields["clock"]?.double,
            let arguments = fields["arguments"]?.strings,
            let faultPlan = fields["faultPlan"].flatMap(faultPlan),
            let mutationLogPath = optional(fields["mutationLogPath"], { $0.string }),
            let passcodeSet = fields["passcodeSet"]?.bool,
            let background = optional(fields["background"], { $0.bool }),
            let biometryGeneration = optional(fields["biometryGeneration"], { $0.int }),
            let launcherPID = optional(fields["launcherPID"], { $0.int32 }),
            let appExtension = optional(fields["appExtension"], appExtension),
            let steps = optional(fields["steps"], stepChannel)
        else { return nil }
        var containers: [String: String] = [:]
        containers.reserveCapacity(groups.count)
        for (group, path) in groups {
            guard let path = path.string else { return nil }
            containers[group] = path
        }
        var context = LaunchContext(
            udid: udid, deviceDirectory: deviceDirectory, bundleID: bundleID, identity: identity, runtime: runtime,
            keychainPath: keychainPath, dataContainer: dataContainer, appGroupContainers: containers,
            lockStatePath: lockStatePath, clock: Date(timeIntervalSince1970: clock), arguments: arguments,
            faultPlan: faultPlan, mutationLogPath: mutationLogPath, passcodeSet: passcodeSet, launcherPID: launcherPID)
        context.background = background
        context.biometryGeneration = biometryGeneration
        context.appExtension = appExtension
        context.steps = steps
        return context
    }

    /// The runtime as the runner writes it (`iOS 17.5`, ``RuntimeVersion/description``) without
    /// Foundation's string searches, which were half of this reader's time on first use; any other
    /// spelling as ``RuntimeVersion`` reads it.
    static func runtimeVersion(_ text: String) -> RuntimeVersion? {
        let utf8 = Array(text.utf8)
        // Indices, not slices: each new generic sequence type costs a debug build a scan of the
        // executable's conformance records on first use.
        guard utf8.count >= 7, utf8.count <= 16, utf8[0] == UInt8(ascii: "i"), utf8[1] == UInt8(ascii: "O"),
            utf8[2] == UInt8(ascii: "S"), utf8[3] == UInt8(ascii: " ")
        else { return RuntimeVersion(text) }
        var dot = 4
        while dot < utf8.count, utf8[dot] != UInt8(ascii: ".") { dot += 1 }
        guard dot < utf8.count else { return RuntimeVersion(text) }
        func number(_ start: Int, _ end: Int) -> Int? {
            guard end > start, end - start <= 4 else { return nil }
            var value = 0
            var index = start
            while index < end {
                let digit = utf8[index]
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(digit - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }
        guard let major = number(4, dot), major >= 2, major <= 99, let minor = number(dot + 1, utf8.count) else {
            return RuntimeVersion(text)
        }
        return RuntimeVersion(major: major, minor: minor)
    }

    static func identity(_ value: Value) -> AppIdentity? {
        guard let fields = value.object,
            let bundleID = fields["bundleID"]?.string,
            let applicationIdentifier = optional(fields["applicationIdentifier"], { $0.string }),
            let keychainAccessGroups = fields["keychainAccessGroups"]?.strings,
            let applicationGroups = fields["applicationGroups"]?.strings
        else { return nil }
        return AppIdentity(
            bundleID: bundleID, applicationIdentifier: applicationIdentifier,
            keychainAccessGroups: keychainAccessGroups, applicationGroups: applicationGroups)
    }

    static func faultPlan(_ value: Value) -> FaultPlan? {
        guard let fields = value.object, let list = fields["faults"]?.array,
            let crashAfterMutation = optional(fields["crashAfterMutation"], { $0.int }),
            let powerLoss = optional(fields["powerLoss"], { $0.bool })
        else { return nil }
        var faults: [Fault] = []
        faults.reserveCapacity(list.count)
        for element in list {
            guard let fault = fault(element) else { return nil }
            faults.append(fault)
        }
        return FaultPlan(faults: faults, crashAfterMutation: crashAfterMutation, powerLoss: powerLoss ?? false)
    }

    static func fault(_ value: Value) -> Fault? {
        guard let fields = value.object,
            let operationName = fields["operation"]?.string, let operation = StoreOperation(rawValue: operationName),
            let call = fields["call"]?.int,
            let action = fields["action"]?.object, let kind = action["kind"]?.string
        else { return nil }
        switch kind {
        case "status":
            guard let status = action["status"]?.int32 else { return nil }
            return Fault(operation, call: call, .status(status))
        case "dropWrite": return Fault(operation, call: call, .dropWrite)
        default: return nil
        }
    }

    static func appExtension(_ value: Value) -> LaunchContext.AppExtension? {
        guard let fields = value.object, let name = fields["name"]?.string, let kind = fields["kind"]?.string,
            let host = fields["hostBundleID"]?.string
        else { return nil }
        return LaunchContext.AppExtension(name: name, kind: kind, hostBundleID: host)
    }

    static func stepChannel(_ value: Value) -> StepChannel? {
        guard let fields = value.object, let grant = fields["grantPath"]?.string, let report = fields["reportPath"]?.string
        else { return nil }
        return StepChannel(grantPath: grant, reportPath: report)
    }
}

internal import CPreferences
import Foundation

/// `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)` with iOS's answers where corelibs Foundation
/// answers otherwise: an archive whose root object is of another class is an error
/// (`NSCocoaErrorDomain` 4864, `coderReadCorrupt`) where corelibs traps (`fatalError`, SIGILL) even
/// though the call throws; bytes that are no keyed archive are 4864 where corelibs answers 3840
/// (a property list error).
///
/// The app's own calls reach it in both kinds of app build (Sources/CPreferences/cunarchiver.c): a
/// static build through `--wrap` (Package.swift, `appBuildLinking`), a dynamic one through the
/// executable's own definition of Foundation's symbol. It reads the archive's root class names and
/// throws when `T` is not among them, then calls Foundation's function. Objects decoded inside
/// `init(coder:)` with `decodeObject(of:forKey:)` are not checked: a wrong class there still traps
/// (docs/device.md lists it).
extension NSKeyedUnarchiver {
    static let unarchivedObjectSymbol =
        "$s10Foundation17NSKeyedUnarchiverC16unarchivedObject7ofClass4fromxSgxm_0A10Essentials4DataVtKAA8NSObjectCRbzAA8NSCodingRzlFZ"

    @_silgen_name(
        "__real_$s10Foundation17NSKeyedUnarchiverC16unarchivedObject7ofClass4fromxSgxm_0A10Essentials4DataVtKAA8NSObjectCRbzAA8NSCodingRzlFZ"
    )
    static func _foundationUnarchivedObject<T: NSObject & NSCoding>(ofClass cls: T.Type, from data: Data) throws -> T?

    /// Foundation's function in a dynamically linked executable (a jump through the address
    /// `cunarchiver_original_resolve` found).
    @_silgen_name("cunarchiver_original")
    static func _libraryUnarchivedObject<T: NSObject & NSCoding>(ofClass cls: T.Type, from data: Data) throws -> T?

    /// The static build's entry: the app's calls, redirected by `--wrap`.
    @_silgen_name(
        "__wrap_$s10Foundation17NSKeyedUnarchiverC16unarchivedObject7ofClass4fromxSgxm_0A10Essentials4DataVtKAA8NSObjectCRbzAA8NSCodingRzlFZ"
    )
    static func _deviceUnarchivedObject<T: NSObject & NSCoding>(ofClass cls: T.Type, from data: Data) throws -> T? {
        try checkRoot(of: data, is: cls)
        return try _foundationUnarchivedObject(ofClass: cls, from: data)
    }

    /// The dynamic build's entry: the app's calls, through the executable's definition of Foundation's symbol.
    @_silgen_name("cunarchiver_device_entry")
    static func _deviceEntryUnarchivedObject<T: NSObject & NSCoding>(ofClass cls: T.Type, from data: Data) throws -> T? {
        try checkRoot(of: data, is: cls)
        guard cunarchiver_original_resolve() != 0 else {
            fatalError("NSKeyedUnarchiver.unarchivedObject(ofClass:from:): Foundation's function is not in this process")
        }
        return try _libraryUnarchivedObject(ofClass: cls, from: data)
    }

    /// Throws iOS's error for bytes that are no keyed archive, or whose root object is not of class `cls`.
    static func checkRoot<T: NSObject>(of data: Data, is cls: T.Type) throws {
        guard let archive = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            archive["$top"] != nil, archive["$objects"] != nil
        else {
            throw CocoaError(
                .coderReadCorrupt,
                userInfo: [NSDebugDescriptionErrorKey: "The data isn't in the correct format (no keyed archive)."])
        }
        if let classes = rootClassNames(archive), !classes.contains(NSStringFromClass(cls)) {
            throw CocoaError(
                .coderReadCorrupt,
                userInfo: [
                    NSDebugDescriptionErrorKey:
                        "value for key 'root' was of unexpected class '\(classes.first ?? "?")'. Allowed classes are '{(\(NSStringFromClass(cls)))}'."
                ])
        }
    }

    /// The root object's class and its superclasses as the archive names them (`$classes`), or nil
    /// when the archive does not say (Foundation's function then answers).
    private static func rootClassNames(_ archive: [String: Any]) -> [String]? {
        guard let objects = archive["$objects"] as? [Any], let top = archive["$top"] as? [String: Any],
            let root = uid(top["root"]), root < objects.count,
            let rootObject = objects[root] as? [String: Any], let classUID = uid(rootObject["$class"]),
            classUID < objects.count, let classInfo = objects[classUID] as? [String: Any]
        else { return nil }
        if let classes = classInfo["$classes"] as? [String] { return classes }
        return (classInfo["$classname"] as? String).map { [$0] }
    }

    /// The index a `CF$UID` names. corelibs gives no public accessor: its stored `value` is read by reflection.
    private static func uid(_ value: Any?) -> Int? {
        guard let value else { return nil }
        return Mirror(reflecting: value).children.first { $0.label == "value" }.flatMap { $0.value as? UInt32 }.map(Int.init)
    }
}

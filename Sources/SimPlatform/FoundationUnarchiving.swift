internal import CPreferences
import Foundation

/// `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)` and `unarchivedObject(ofClasses:from:)` with
/// iOS's answers where corelibs Foundation answers otherwise: an archive whose root object is of
/// another class is an error (`NSCocoaErrorDomain` 4864, `coderReadCorrupt`) where corelibs traps
/// (`fatalError`, SIGILL) even though the call throws; bytes that are no keyed archive are 4864
/// where corelibs answers 3840 (a property list error).
///
/// The app's own calls reach it in both kinds of app build (Sources/CPreferences/interpose.h): a
/// static build through `--wrap` (Package.swift, `appBuildLinking`), a dynamic one through the
/// executable's own definitions of Foundation's symbols. It resolves the archive's root class name
/// and throws when it is none of the asked classes, then calls Foundation's function. Objects
/// decoded inside `init(coder:)` with `decodeObject(of:forKey:)` are not checked: a wrong class
/// there still traps (docs/device.md lists it).
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

    /// `unarchivedObject(ofClasses:from:)`, which answers the same way (and which the harness's
    /// declared stores call).
    @_silgen_name(
        "__real_$s10Foundation17NSKeyedUnarchiverC16unarchivedObject9ofClasses4fromypSgSayyXlXpG_0A10Essentials4DataVtKFZ")
    static func _foundationUnarchivedObject(ofClasses classes: [AnyClass], from data: Data) throws -> Any?

    @_silgen_name("cunarchiver_classes_original")
    static func _libraryUnarchivedObject(ofClasses classes: [AnyClass], from data: Data) throws -> Any?

    @_silgen_name(
        "__wrap_$s10Foundation17NSKeyedUnarchiverC16unarchivedObject9ofClasses4fromypSgSayyXlXpG_0A10Essentials4DataVtKFZ")
    static func _deviceUnarchivedObject(ofClasses classes: [AnyClass], from data: Data) throws -> Any? {
        try checkRoot(of: data, isOneOf: classes)
        return try _foundationUnarchivedObject(ofClasses: classes, from: data)
    }

    @_silgen_name("cunarchiver_classes_entry")
    static func _deviceEntryUnarchivedObject(ofClasses classes: [AnyClass], from data: Data) throws -> Any? {
        try checkRoot(of: data, isOneOf: classes)
        guard cunarchiver_classes_original_resolve() != 0 else {
            fatalError("NSKeyedUnarchiver.unarchivedObject(ofClasses:from:): Foundation's function is not in this process")
        }
        return try _libraryUnarchivedObject(ofClasses: classes, from: data)
    }

    static func checkRoot<T: NSObject>(of data: Data, is cls: T.Type) throws { try checkRoot(of: data, isOneOf: [cls]) }

    /// Throws iOS's error for bytes that are no keyed archive, or whose root object's class is not
    /// one of `classes` (or a subclass). The archive's class name resolves as corelibs resolves it
    /// (`NSKeyedUnarchiver.setClass(_:forClassName:)`'s map first, as a migration maps a renamed
    /// class), so only a call corelibs would trap on is answered here; a name that resolves to no
    /// class is left to Foundation, which answers 4864 itself.
    static func checkRoot(of data: Data, isOneOf classes: [AnyClass]) throws {
        guard let archive = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            archive["$top"] != nil, archive["$objects"] != nil
        else {
            throw CocoaError(
                .coderReadCorrupt,
                userInfo: [NSDebugDescriptionErrorKey: "The data isn't in the correct format (no keyed archive)."])
        }
        guard let name = rootClassName(archive),
            let resolved = NSKeyedUnarchiver.class(forClassName: name) ?? NSClassFromString(name)
        else { return }
        guard let object = resolved as? NSObject.Type, !classes.contains(where: { object.isSubclass(of: $0) }) else { return }
        throw CocoaError(
            .coderReadCorrupt,
            userInfo: [
                NSDebugDescriptionErrorKey:
                    "value for key 'root' was of unexpected class '\(name)'. Allowed classes are '{(\(classes.map { NSStringFromClass($0) }.joined(separator: ", ")))}'."
            ])
    }

    /// The root object's class name as the archive codes it (`$classname`, as corelibs reads it),
    /// or nil when the archive does not say (Foundation's function then answers).
    private static func rootClassName(_ archive: [String: Any]) -> String? {
        guard let objects = archive["$objects"] as? [Any], let top = archive["$top"] as? [String: Any],
            let root = uid(top["root"]), root < objects.count,
            let rootObject = objects[root] as? [String: Any], let classUID = uid(rootObject["$class"]),
            classUID < objects.count, let classInfo = objects[classUID] as? [String: Any]
        else { return nil }
        return classInfo["$classname"] as? String ?? (classInfo["$classes"] as? [String])?.first
    }

    /// The index a `CF$UID` names. corelibs gives no public accessor: its stored `value` is read by reflection.
    private static func uid(_ value: Any?) -> Int? {
        guard let value else { return nil }
        return Mirror(reflecting: value).children.first { $0.label == "value" }.flatMap { $0.value as? UInt32 }.map(Int.init)
    }
}

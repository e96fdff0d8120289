import Foundation

/// `NSKeyedUnarchiver.unarchivedObject(ofClass:from:)` with iOS's answer for an archive whose root
/// object is of another class: an error (`NSCocoaErrorDomain` 4864, `coderReadCorrupt`), where
/// corelibs Foundation traps (`fatalError`, SIGILL) even though the call throws.
///
/// A static app build is linked with `--wrap` for the function's symbol (Package.swift,
/// `appBuildLinking`): the app's own calls reach this wrapper, which reads the archive's root class
/// names and throws when `T` is not among them, then calls Foundation's function. Objects decoded
/// inside `init(coder:)` with `decodeObject(of:forKey:)` are not checked: a wrong class there still
/// traps (docs/device.md lists it).
extension NSKeyedUnarchiver {
    static let unarchivedObjectSymbol =
        "$s10Foundation17NSKeyedUnarchiverC16unarchivedObject7ofClass4fromxSgxm_0A10Essentials4DataVtKAA8NSObjectCRbzAA8NSCodingRzlFZ"

    @_silgen_name(
        "__real_$s10Foundation17NSKeyedUnarchiverC16unarchivedObject7ofClass4fromxSgxm_0A10Essentials4DataVtKAA8NSObjectCRbzAA8NSCodingRzlFZ"
    )
    static func _foundationUnarchivedObject<T: NSObject & NSCoding>(ofClass cls: T.Type, from data: Data) throws -> T?

    @_silgen_name(
        "__wrap_$s10Foundation17NSKeyedUnarchiverC16unarchivedObject7ofClass4fromxSgxm_0A10Essentials4DataVtKAA8NSObjectCRbzAA8NSCodingRzlFZ"
    )
    static func _deviceUnarchivedObject<T: NSObject & NSCoding>(ofClass cls: T.Type, from data: Data) throws -> T? {
        if let classes = rootClassNames(data), !classes.contains(NSStringFromClass(cls)) {
            throw CocoaError(
                .coderReadCorrupt,
                userInfo: [
                    NSDebugDescriptionErrorKey:
                        "value for key 'root' was of unexpected class '\(classes.first ?? "?")'. Allowed classes are '{(\(NSStringFromClass(cls)))}'."
                ])
        }
        return try _foundationUnarchivedObject(ofClass: cls, from: data)
    }

    /// The root object's class and its superclasses as the archive names them (`$classes`), or nil
    /// when the bytes are no keyed archive (Foundation's function then answers).
    static func rootClassNames(_ data: Data) -> [String]? {
        guard let archive = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let objects = archive["$objects"] as? [Any], let top = archive["$top"] as? [String: Any],
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

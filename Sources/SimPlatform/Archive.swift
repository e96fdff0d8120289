import Foundation

/// `NSKeyedArchiver` archives as iOS apps write them, with secure coding.
///
/// swift-corelibs-foundation's keyed archiver writes the same binary property list format
/// (`$archiver`, `$objects`, `$top`) and round-trips `NSSecureCoding` classes; a Swift class is
/// archived under its module-qualified name, as on iOS for a class without `@objc(Name)`.
public enum Archive {
    /// The archive of `object`, with `requiringSecureCoding: true`.
    public static func data(of object: NSObject & NSSecureCoding) throws -> Data {
        try NSKeyedArchiver.archivedData(withRootObject: object, requiringSecureCoding: true)
    }

    /// The object of class `type` from an archive; throws on a corrupt archive or a different class.
    public static func object<T: NSObject & NSSecureCoding>(_ type: T.Type, from data: Data) throws -> T {
        guard let object = try NSKeyedUnarchiver.unarchivedObject(ofClass: type, from: data) else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }
}

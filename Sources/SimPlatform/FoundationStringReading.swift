internal import CPreferences
import Foundation

/// `String(contentsOfFile:encoding:)` and `String(contentsOf:encoding:)` with iOS's error for a file
/// whose bytes the encoding cannot read: `NSFileReadInapplicableStringEncodingError` (261), where
/// corelibs Foundation answers `NSFileReadCorruptFileError` (259). Every other answer is Foundation's.
///
/// The app's calls arrive as FoundationUnarchiving's do (Sources/CPreferences/interpose.h): in a
/// static build through `--wrap` (Package.swift, `appBuildLinking`), in a dynamic one through the
/// executable's own definitions of Foundation's symbols.
extension String {
    @_silgen_name("__real_$sSS20FoundationEssentialsE14contentsOfFile8encodingS2Sh_SSAAE8EncodingVtKcfC")
    static func _foundationContents(ofFile path: String, encoding: String.Encoding) throws -> String

    @_silgen_name("__real_$sSS20FoundationEssentialsE10contentsOf8encodingSSAA3URLVh_SSAAE8EncodingVtKcfC")
    static func _foundationContents(of url: URL, encoding: String.Encoding) throws -> String

    @_silgen_name("cstringreading_file_original")
    static func _libraryContents(ofFile path: String, encoding: String.Encoding) throws -> String

    @_silgen_name("cstringreading_url_original")
    static func _libraryContents(of url: URL, encoding: String.Encoding) throws -> String

    @_silgen_name("__wrap_$sSS20FoundationEssentialsE14contentsOfFile8encodingS2Sh_SSAAE8EncodingVtKcfC")
    static func _deviceContents(ofFile path: String, encoding: String.Encoding) throws -> String {
        do { return try _foundationContents(ofFile: path, encoding: encoding) } catch { throw iOSAnswer(error) }
    }

    @_silgen_name("__wrap_$sSS20FoundationEssentialsE10contentsOf8encodingSSAA3URLVh_SSAAE8EncodingVtKcfC")
    static func _deviceContents(of url: URL, encoding: String.Encoding) throws -> String {
        do { return try _foundationContents(of: url, encoding: encoding) } catch { throw iOSAnswer(error) }
    }

    @_silgen_name("cstringreading_file_entry")
    static func _entryContents(ofFile path: String, encoding: String.Encoding) throws -> String {
        guard cstringreading_file_original_resolve() != 0 else {
            fatalError("String(contentsOfFile:encoding:): Foundation's function is not in this process")
        }
        do { return try _libraryContents(ofFile: path, encoding: encoding) } catch { throw iOSAnswer(error) }
    }

    @_silgen_name("cstringreading_url_entry")
    static func _entryContents(of url: URL, encoding: String.Encoding) throws -> String {
        guard cstringreading_url_original_resolve() != 0 else {
            fatalError("String(contentsOf:encoding:): Foundation's function is not in this process")
        }
        do { return try _libraryContents(of: url, encoding: encoding) } catch { throw iOSAnswer(error) }
    }

    /// 259 becomes 261 with the same details (the file's path, the encoding): corelibs answers 259
    /// only for bytes it read but could not decode.
    static func iOSAnswer(_ error: Error) -> Error {
        let failure = error as NSError
        guard failure.domain == NSCocoaErrorDomain, failure.code == CocoaError.fileReadCorruptFile.rawValue else { return error }
        return CocoaError(.fileReadInapplicableStringEncoding, userInfo: failure.userInfo)
    }
}

import Entitlements
import Foundation

/// Paths of the checked-in fixtures and of the golden files kept beside the tests.
enum FixtureFiles {
    static let testsFolder = (#filePath as NSString).deletingLastPathComponent

    static var root: String {
        if let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil) { return url.path }
        return (testsFolder as NSString).appendingPathComponent("Fixtures")
    }

    static func path(_ name: String) -> String { (root as NSString).appendingPathComponent(name) }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(name)))
    }

    static func bytes(_ name: String) throws -> [UInt8] { [UInt8](try data(name)) }

    static var buildsRoot: String { path("builds") }

    /// Where a golden file of this target lives (in the source tree, so re-recording shows in review).
    static func golden(_ name: String) -> String { (testsFolder as NSString).appendingPathComponent("Fixtures/golden/\(name)") }

    /// The entitlements of `src/ledger.plist`, which most fixtures carry in one form or another.
    static func ledger() throws -> Entitlements {
        Entitlements(try PropertyListReader.dictionary(from: try data("src/ledger.plist"), file: "ledger.plist"))
    }
}

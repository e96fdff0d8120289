// FoundationApp: app code written for iOS, with no harness call, for the tests of Foundation's own
// paths on a simulated device. `-FoundationMode write` stores preferences through UserDefaults
// (`-FoundationCrash YES`: then it dies by SIGKILL, before any exit handler could save anything);
// `-FoundationMode report` writes what Foundation answers to `Documents/report.plist`;
// `-FoundationMode unarchive` reads an archive as the wrong class, bytes that are no archive, and a
// file that is not UTF-8 as UTF-8 (`Documents/unarchive.plist`).
import Foundation

#if os(Linux)
    import SimPlatform  // FileManager.containerURL(forSecurityApplicationGroupIdentifier:)
#endif

let defaults = UserDefaults.standard
let group = "group.com.example.foundation"

switch defaults.string(forKey: "FoundationMode") ?? "report" {
case "write":
    defaults.set("text", forKey: "string")
    defaults.set(7, forKey: "integer")
    defaults.set(true, forKey: "bool")
    defaults.set(2.5, forKey: "double")
    defaults.set(Data([1, 2, 3]), forKey: "data")
    defaults.set(["a", "b"], forKey: "array")
    defaults.set(["k": 1], forKey: "dictionary")
    defaults.set(Date(timeIntervalSince1970: 86_400), forKey: "date")
    defaults.setValue("kvc", forKey: "setValue")
    defaults.set("gone", forKey: "removed")
    defaults.removeObject(forKey: "removed")
    UserDefaults(suiteName: group)?.set("shared", forKey: "groupValue")
    UserDefaults(suiteName: "com.example.plain-suite")?.set(1, forKey: "suiteValue")
    if defaults.bool(forKey: "FoundationCrash") { kill(getpid(), SIGKILL) }
case "report":
    let files = FileManager.default
    func path(_ directory: FileManager.SearchPathDirectory) -> String {
        files.urls(for: directory, in: .userDomainMask).first?.path ?? "none"
    }
    let report: [String: Any] = [
        "home": NSHomeDirectory(), "temporary": NSTemporaryDirectory(),
        "documents": path(.documentDirectory), "applicationSupport": path(.applicationSupportDirectory),
        "caches": path(.cachesDirectory), "library": path(.libraryDirectory),
        "bundleIdentifier": Bundle.main.bundleIdentifier ?? "none",
        "version": Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "none",
        "group": files.containerURL(forSecurityApplicationGroupIdentifier: group)?.path ?? "none",
        "otherGroup": files.containerURL(forSecurityApplicationGroupIdentifier: "group.other")?.path ?? "none",
        "string": defaults.string(forKey: "string") ?? "none", "integer": defaults.integer(forKey: "integer"),
        "bool": defaults.bool(forKey: "bool"), "setValue": defaults.string(forKey: "setValue") ?? "none",
        "groupValue": UserDefaults(suiteName: group)?.string(forKey: "groupValue") ?? "none",
        "keys": defaults.dictionaryRepresentation().keys.filter { !$0.hasPrefix("Foundation") }.sorted(),
        "synchronize": defaults.synchronize(),
    ]
    let data = try PropertyListSerialization.data(fromPropertyList: report, format: .xml, options: 0)
    try data.write(to: files.urls(for: .documentDirectory, in: .userDomainMask)[0].appendingPathComponent("report.plist"))
case "unarchive":
    // An archive of one class read as another, as a migration meets an archive an older release wrote.
    let archive = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: ["a"]), requiringSecureCoding: true)
    let answer: String
    do {
        answer = try NSKeyedUnarchiver.unarchivedObject(ofClass: NSDictionary.self, from: archive) == nil ? "nil" : "object"
    } catch {
        answer = "\((error as NSError).domain) \((error as NSError).code)"
    }
    let readBack = try NSKeyedUnarchiver.unarchivedObject(ofClass: NSArray.self, from: archive)?.count ?? -1
    // Bytes that are no archive at all, as a file a crash left truncated.
    let notArchive: String
    do {
        notArchive =
            try NSKeyedUnarchiver.unarchivedObject(ofClass: NSArray.self, from: Data("not an archive".utf8)) == nil
            ? "nil" : "object"
    } catch {
        notArchive = "\((error as NSError).domain) \((error as NSError).code)"
    }
    // The same through unarchivedObject(ofClasses:from:).
    let wrongClasses: String
    do {
        wrongClasses =
            try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSString.self], from: archive) == nil
            ? "nil" : "object"
    } catch {
        wrongClasses = "\((error as NSError).domain) \((error as NSError).code)"
    }
    // A class renamed between releases, mapped as a migration maps it: the archive names the old
    // class, which resolves to the asked one.
    NSKeyedArchiver.setClassName("LegacyModule.OldList", for: NSArray.self)
    let legacy = try NSKeyedArchiver.archivedData(withRootObject: NSArray(array: ["a", "b"]), requiringSecureCoding: true)
    NSKeyedArchiver.setClassName(nil, for: NSArray.self)
    NSKeyedUnarchiver.setClass(NSArray.self, forClassName: "LegacyModule.OldList")
    let renamed = (try? NSKeyedUnarchiver.unarchivedObject(ofClass: NSArray.self, from: legacy))?.count ?? -1
    // A string file that is not UTF-8 (Latin-1 bytes), read as UTF-8: by path and by URL.
    let latin1 = FileManager.default.temporaryDirectory.appendingPathComponent("latin1.txt")
    try Data([0x63, 0x61, 0x66, 0xE9]).write(to: latin1)
    func stringAnswer(_ read: () throws -> String) -> String {
        do { return "read \(try read().count)" } catch { return "\((error as NSError).domain) \((error as NSError).code)" }
    }
    let report: [String: Any] = [
        "wrongClass": answer, "rightClass": readBack, "notArchive": notArchive, "wrongClasses": wrongClasses,
        "renamedClass": renamed,
        "nonUTF8Path": stringAnswer { try String(contentsOfFile: latin1.path, encoding: .utf8) },
        "nonUTF8URL": stringAnswer { try String(contentsOf: latin1, encoding: .utf8) },
        "latin1": stringAnswer { try String(contentsOfFile: latin1.path, encoding: .isoLatin1) },
    ]
    let data = try PropertyListSerialization.data(fromPropertyList: report, format: .xml, options: 0)
    try data.write(
        to: FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0].appendingPathComponent("unarchive.plist"))
default:
    exit(2)
}

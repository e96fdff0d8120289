// FoundationApp: app code written for iOS, with no harness call, for the tests of Foundation's own
// paths on a simulated device. `-FoundationMode write` stores preferences through UserDefaults
// (`-FoundationCrash YES`: then it dies by SIGKILL, before any exit handler could save anything);
// `-FoundationMode report` writes what Foundation answers to `Documents/report.plist`;
// `-FoundationMode unarchive` reads an archive as the wrong class (`Documents/unarchive.plist`).
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
    let report: [String: Any] = ["wrongClass": answer, "rightClass": readBack]
    let data = try PropertyListSerialization.data(fromPropertyList: report, format: .xml, options: 0)
    try data.write(to: FileManager.default.urls(for: .documentDirectory, in: .userDomainMask)[0].appendingPathComponent("unarchive.plist"))
default:
    exit(2)
}

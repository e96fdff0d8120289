import Foundation

/// Golden files: expected outputs kept under version control and re-recorded only on request.
public enum Golden {
    /// Whether this run re-records golden files (`RECORD_SNAPSHOTS=1`).
    public static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" }

    /// Compares `actual` with the golden file at `path`; when recording, writes it instead.
    /// - Returns: nil when they match (or were recorded), else a one-line description of the first difference.
    public static func compare(_ actual: String, toFileAt path: String) -> String? {
        if recording {
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try? actual.write(toFile: path, atomically: true, encoding: .utf8)
            return nil
        }
        guard let expected = try? String(contentsOfFile: path, encoding: .utf8) else {
            return "\(path): golden file missing (run with RECORD_SNAPSHOTS=1 to record it)"
        }
        if expected == actual { return nil }
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(a.count, e.count) {
            let got = index < a.count ? String(a[index]) : "<end>"
            let want = index < e.count ? String(e[index]) : "<end>"
            if got != want { return "\(path):\(index + 1): expected \"\(want)\", got \"\(got)\"" }
        }
        return "\(path): differs"
    }

    /// The folder of the test source file `filePath` (pass `#filePath`), for golden files kept beside tests.
    public static func folder(of filePath: String) -> String { (filePath as NSString).deletingLastPathComponent }
}

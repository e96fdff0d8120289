import Foundation
import Testing

/// Every test target runs in one process, its tests in parallel: a test that changes what the whole
/// process shares (its environment, working directory, umask, or the keychain every `SecItem*` call
/// falls back to) changes it under the tests running beside it. ProtectedFilesTests once set the
/// protected-data announcement FIFO in the environment, and a wait in the test beside it announced
/// there (1 run in 150 failed). A test hands such a value to what it tests instead.
@Suite("Tests share one process: none changes what the process shares")
struct SharedProcessTests {
    /// A call of one of the functions that change process-wide state (not the end of a longer name).
    static let processWideCall = try! NSRegularExpression(
        pattern:
            "(?<![A-Za-z_])(setenv|unsetenv|putenv|clearenv|chdir|fchdir|changeCurrentDirectoryPath|umask|setProcessDefault)\\(")

    /// The lines of `text` that call one of them, comments left out.
    static func processWideLines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { line in
            let code = line.components(separatedBy: "//")[0]
            return processWideCall.firstMatch(in: code, range: NSRange(code.startIndex..., in: code)) != nil
        }
    }

    @Test("the check finds a call and leaves comments and longer names alone")
    func checkFinds() {
        let text = """
            setenv("A", "b", 1)
                defer { unsetenv("A") }
            // setenv("in a comment", "", 1)
            let x = mysetenv("A")
            FileManager.default.changeCurrentDirectoryPath("/")
            """
        #expect(
            Self.processWideLines(text) == [
                "setenv(\"A\", \"b\", 1)", "    defer { unsetenv(\"A\") }",
                "FileManager.default.changeCurrentDirectoryPath(\"/\")",
            ])
    }

    @Test(
        "no test file, nor the tests' support modules, calls what changes the process's environment, working directory, umask or default keychain"
    )
    func noProcessWideChanges() throws {
        let this = URL(fileURLWithPath: #filePath).lastPathComponent
        var found: [String] = []
        var files = 0
        for folder in ["Tests", "Sources/TestSupport", "Sources/GateTestSupport"] {
            let root = DeclaredDependencyTests.root.appendingPathComponent(folder)
            let enumerator = FileManager.default.enumerator(atPath: root.path)
            while let relative = enumerator?.nextObject() as? String {
                guard relative.hasSuffix(".swift"), (relative as NSString).lastPathComponent != this else { continue }
                let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
                files += 1
                found += Self.processWideLines(text).map { "\(folder)/\(relative): \($0.trimmingCharacters(in: .whitespaces))" }
            }
        }
        #expect(files > 100, "the test files were read")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}

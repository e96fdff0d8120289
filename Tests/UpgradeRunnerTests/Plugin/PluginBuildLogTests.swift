import Testing

/// The plugin's build log rules (`Plugins/UpgradeGate/BuildLog.swift`, compiled into this target
/// through a link, since a plugin's own code cannot be imported by a test).
@Suite struct PluginBuildLogTests {
    @Test("a build that failed on Security's symbols names the file and what to write instead")
    func securityImportHint() throws {
        let log = [
            "[12/40] Compiling MailKit KeychainStore.swift",
            "/src/Mail/Sources/MailKit/KeychainStore.swift:14:22: error: cannot find 'SecItemAdd' in scope",
            "/src/Mail/Sources/MailKit/KeychainStore.swift:9:9: error: cannot find 'kSecClass' in scope",
        ]
        let hint = try #require(BuildLog.securityImportHint(log))
        #expect(hint.hasPrefix("/src/Mail/Sources/MailKit/KeychainStore.swift:14:22: 'SecItemAdd' is not in scope"))
        #expect(hint.contains("write `import Security`"))
        #expect(!hint.contains("\n"))
    }

    @Test(
        "other build errors get no hint",
        arguments: [
            "/src/A.swift:1:1: error: cannot find 'Session' in scope",
            "/src/A.swift:1:1: error: cannot find type 'SecItemAdd' in scope",
            "/src/A.swift:1:1: warning: cannot find 'SecItemAdd' in scope",
        ])
    func noHint(line: String) {
        #expect(BuildLog.securityImportHint(["Building for debugging...", line]) == nil)
    }

    @Test("the known static-link notes are dropped and counted; real errors stay")
    func notesDropped() {
        let log = BuildLog(
            [
                "[3/9] Linking App",
                "/usr/lib/x.o: warning: Using 'dlopen' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking",
                "/src/A.swift:1:1: error: boom",
            ].joined(separator: "\n"))
        #expect(log.hidden == 1)
        #expect(log.shown == ["[3/9] Linking App", "/src/A.swift:1:1: error: boom"])
    }
}

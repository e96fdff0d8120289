import Foundation
import Testing
import TestSupport

/// The scripts' bad usage is a one-line error naming the setting or argument, exit 2, before any
/// build starts (so these run in milliseconds and never build or time anything).
@Suite struct ScriptUsageTests {
    /// The test process's PATH (python3 and bash where this machine keeps them), and nothing else.
    static let environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]

    @Test("scripts/gate refuses a CONFIGURATION other than debug or release, naming it")
    func gateConfiguration() throws {
        var environment = Self.environment
        environment["CONFIGURATION"] = "fast"
        let result = try Script.run("gate", [], environment: environment)
        #expect(result.status == 2)
        #expect(result.stderr == "scripts/gate: CONFIGURATION must be debug or release, not 'fast'\n")
        #expect(result.stdout.isEmpty)
    }

    /// A folder that exists and is not a checkout of the package.
    static let notACheckout = Script.repositoryRoot + "/scripts"

    @Test(
        "scripts/bench: an unknown benchmark, and compare without a checkout, with bad ROUNDS or stray words",
        arguments: [
            (["lauch"], "unknown benchmark 'lauch'"),
            (["compare"], "give the other checkout's folder"),
            (["compare", "/nonexistent-checkout"], "/nonexistent-checkout: no such folder"),
            (["compare", notACheckout], "not a checkout of this package (no Package.swift)"),
            (["compare", Script.repositoryRoot, "0"], "ROUNDS: '0' is not a positive whole number"),
            (["compare", Script.repositoryRoot, "3", "--jobs"], "'--jobs': give gate options after --"),
        ])
    func benchUsage(_ arguments: [String], _ message: String) throws {
        let result = try Script.run("bench", arguments, environment: Self.environment)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// An app build's link as SwiftPM prints it off a terminal (the link's verbose command lines, clang's
    /// `-no-pie` note, glibc's static-link notes), then a compiler warning, a team's own `mktemp` call and
    /// a failing link whose notes sit beside a real error.
    static let buildOutput = """
        Building for debugging...
        [0/12] Write swift-version-6A52383ED409C6A7.txt
        Swift version 6.3.1 (swift-6.3.1-RELEASE)
        Target: x86_64-unknown-linux-gnu
        /opt/swift/usr/bin/swift-autolink-extract /b/AppHarness.build/AppBuild.swift.o -o /b/LedgerV1.autolink
        /opt/swift/usr/bin/clang -Xlinker --build-id /opt/swift/usr/lib/swift_static/linux/x86_64/swiftrt.o -o /b/LedgerV1
        clang version 21.0.0 (https://github.com/swiftlang/llvm-project.git 11673e6660b2d0a5f9f99b1c7b773f4c2f6df1b0)
        Target: x86_64-unknown-linux-gnu
        Thread model: posix
        InstalledDir: /opt/swift/usr/bin
        Found candidate GCC installation: /usr/lib/gcc/x86_64-linux-gnu/12
        Selected GCC installation: /usr/lib/gcc/x86_64-linux-gnu/12
        Candidate multilib: .;@m64
        Selected multilib: .;@m64
        clang: warning: argument unused during compilation: '-no-pie' [-Wunused-command-line-argument]
         "/usr/bin/ld.gold" --hash-style=gnu --eh-frame-hdr -m elf_x86_64 -static -o /b/LedgerV1
        /usr/lib/x86_64-linux-gnu/libsqlite3.a(os_unix.o):function unixDlOpen: warning: Using 'dlopen' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking
        /opt/swift/usr/lib/swift_static/linux/libCoreFoundation.a(CFPlatform.c.o):CFPlatform.c:function CFCopyUserName: warning: Using 'getpwuid' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking
        /opt/swift/usr/lib/swift_static/linux/libFoundationEssentials.a(Data+Writing.swift.o):_ThreadLocal.swift.o:function createTemporaryFile: warning: the use of `mktemp' is dangerous, better use `mkstemp' or `mkdtemp'
        [7/8] Linking LedgerV1
        /work/Sources/App/main.swift:3:9: warning: initialization of variable 'x' was never used
        [9/10] Compiling App main.swift
        /work/.build/debug/App.build/temp.c.o:temp.c:function scratch: warning: the use of `mktemp' is dangerous, better use `mkstemp' or `mkdtemp'
        [10/11] Linking App
         "/usr/bin/ld.gold" -static -o /b/Broken
        /usr/lib/x86_64-linux-gnu/libc.a(dl-support.o):function _dl_aux_init: warning: Using 'getpwnam' in statically linked applications requires at runtime the shared libraries from the glibc version used for linking
        /b/Broken.build/main.swift.o:function main: error: undefined reference to 'missing'
        [11/11] Linking Broken

        """

    @Test(
        "scripts/quiet-build drops the known static-link notes and the link lines around them, keeps every real warning and error, and counts what it dropped"
    )
    func quietBuild() throws {
        let folder = try TemporaryDirectory("quiet-build")
        try Self.buildOutput.write(toFile: folder.file("build.txt"), atomically: true, encoding: .utf8)
        let result = try Script.run(
            "quiet-build", ["--label", "scripts/gate", folder.file("build.txt")], environment: Self.environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(
            result.stdout == """
                Building for debugging...
                [0/12] Write swift-version-6A52383ED409C6A7.txt
                [7/8] Linking LedgerV1
                /work/Sources/App/main.swift:3:9: warning: initialization of variable 'x' was never used
                [9/10] Compiling App main.swift
                /work/.build/debug/App.build/temp.c.o:temp.c:function scratch: warning: the use of `mktemp' is dangerous, better use `mkstemp' or `mkdtemp'
                [10/11] Linking App
                 "/usr/bin/ld.gold" -static -o /b/Broken
                /b/Broken.build/main.swift.o:function main: error: undefined reference to 'missing'
                [11/11] Linking Broken
                scripts/gate: 5 known static-link notes hidden (glibc's, for a static executable's dlopen, getaddrinfo, user and group lookups and mktemp; Package.swift says why they are harmless here)

                """)
    }
}

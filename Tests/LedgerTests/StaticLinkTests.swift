import Foundation
import LedgerKit
import SimDevice
import SimRuntime
import Testing
import TestSupport

/// The app builds link the Swift runtime and Foundation statically (Package.swift, `appBuild`); this
/// test process links them dynamically. Archives pass between the two both ways: a static link that
/// dropped Foundation's `Array` bridging wrote a 0-byte `Session.archive` and migrated nothing.
@Suite struct StaticLinkTests {
    private static let archivePath = "/Library/Application Support/" + LedgerNames.sessionArchive

    @Test("v1's session archive is a binary keyed archive that the dynamically linked Foundation decodes")
    func staticArchiveReadsHere() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        let data = try Data(contentsOf: URL(fileURLWithPath: try device.container() + Self.archivePath))
        #expect(data.starts(with: Array("bplist00".utf8)), "a binary property list, not \(data.count) bytes")
        // The class is v1's library's, which every later release imports: all builds decode this name.
        #expect(data.range(of: Data("LedgerRelease1.LegacySession".utf8)) != nil, "the archived class name")
        let session = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: LegacySession.self, from: data))
        #expect(session.userID == LedgerNames.userID(device.caseID))
        #expect(session.token == CaseSecrets(caseID: device.caseID).sessionToken, "the seeded token")
    }

    @Test("an archive written by the dynamically linked Foundation migrates in the statically linked v2")
    func dynamicArchiveMigrates() throws {
        let device = try LedgerDevice()
        try device.install("v1")
        try device.launch(.seed)
        let session = LegacySession(
            userID: LedgerNames.userID(device.caseID), token: CaseSecrets(caseID: device.caseID).sessionToken)
        try NSKeyedArchiver.archivedData(withRootObject: session, requiringSecureCoding: true)
            .write(to: URL(fileURLWithPath: try device.container() + Self.archivePath))
        try device.install("v2")
        #expect(try device.launch(.launch).migration == MigrationOutcome(state: .migrated, from: 0, to: 2))
        #expect(try device.launch(.verify).secretResults == ["found", "found", "found", "found"])
    }
}

/// The app builds are static executables (Package.swift, `appBuildLinking`): a launch runs no dynamic
/// linker and loads no shared library, and the executable is not position-independent, so nothing
/// relocates it. Read from the built executables' ELF headers, so a change of flags the linker
/// ignores shows here.
@Suite struct AppBuildLinkTests {
    @Test(
        "the app builds have no interpreter and no dynamic section, and are not position-independent",
        arguments: ["LedgerV1", "LedgerV3", "TinyApp", "WaitingApp"])
    func linkedStatically(_ product: String) throws {
        let image = try ELFImage(path: BuiltProducts.executable(product))
        #expect(image.type == 2, "ET_EXEC (2), not ET_DYN (3): \(product) is position-independent")
        #expect(!image.interpreter, "\(product) names a dynamic linker (PT_INTERP)")
        #expect(!image.dynamic && image.needed.isEmpty, "\(product) needs \(image.needed)")
    }

    @Test("the runner, which is not an app build, is read as position-independent and linked to shared libraries")
    func runnerIsLinkedAsBefore() throws {
        let image = try ELFImage(path: BuiltProducts.executable("upgrade-runner"))
        #expect(image.type == 3, "ET_DYN: the type check can fail")
        #expect(image.interpreter && image.dynamic, "the program headers were read")
        #expect(image.needed.contains("libswiftCore.so"), "\(image.needed)")
        #expect(image.needed.contains("libsqlite3.so.0"), "the runner links the system's shared SQLite: \(image.needed)")
    }
}

/// The facts of a 64-bit little-endian ELF executable these tests need: its type, whether it names a
/// dynamic linker (PT_INTERP) and has a dynamic section (PT_DYNAMIC), and the shared libraries that
/// section names (DT_NEEDED).
private struct ELFImage {
    var type: UInt16
    var interpreter = false
    var dynamic = false
    var needed: [String]

    init(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            var value: T = 0
            for index in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(bytes[offset + index]) }
            return value
        }
        guard bytes.count > 64, bytes[0..<4].elementsEqual([0x7f, 0x45, 0x4c, 0x46]), bytes[4] == 2, bytes[5] == 1
        else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: path]) }
        type = integer(16, UInt16.self)
        let headers = Int(integer(32, UInt64.self))
        let headerSize = Int(integer(54, UInt16.self))
        let headerCount = Int(integer(56, UInt16.self))
        // Program headers: PT_LOAD (1) maps addresses to file offsets, PT_DYNAMIC (2) is the section,
        // PT_INTERP (3) names the dynamic linker.
        var loads: [(address: UInt64, offset: UInt64, size: UInt64)] = []
        var section: (offset: Int, size: Int)?
        for index in 0..<headerCount {
            let base = headers + index * headerSize
            let kind = integer(base, UInt32.self)
            if kind == 1 {
                loads.append((integer(base + 16, UInt64.self), integer(base + 8, UInt64.self), integer(base + 32, UInt64.self)))
            } else if kind == 2 {
                section = (Int(integer(base + 8, UInt64.self)), Int(integer(base + 32, UInt64.self)))
            } else if kind == 3 {
                interpreter = true
            }
        }
        var strings: UInt64?
        var names: [UInt64] = []
        dynamic = section != nil
        if let section {
            for entry in stride(from: section.offset, to: section.offset + section.size, by: 16) {
                let tag = integer(entry, UInt64.self)
                let value = integer(entry + 8, UInt64.self)
                if tag == 0 { break }
                if tag == 1 { names.append(value) } else if tag == 5 { strings = value }
            }
        }
        guard let strings, let load = loads.first(where: { strings >= $0.address && strings < $0.address + $0.size }) else {
            needed = []
            return
        }
        let table = Int(strings - load.address + load.offset)
        needed = names.map { name in
            let start = table + Int(name)
            let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }
}

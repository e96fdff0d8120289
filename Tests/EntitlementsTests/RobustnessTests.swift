import Entitlements
import Foundation
import Testing
import TestSupport

/// Truncated and bit-flipped copies of every fixture go through the reader for their kind: each must either read
/// or throw `EntitlementsError` with a one-line message naming the file; a trap fails the whole run.
@Suite struct RobustnessTests {
    enum Reader: String, CaseIterable, Sendable {
        case plist, codesign, profile, machO, loader
    }

    static func read(_ bytes: [UInt8], with reader: Reader) throws(EntitlementsError) {
        let data = Data(bytes)
        switch reader {
        case .plist: _ = try PropertyListReader.dictionary(from: data, file: "mutant")
        case .codesign: _ = try CodesignOutput.read(data, file: "mutant")
        case .profile: _ = try ProvisioningProfile.read(data, file: "mutant")
        case .machO: _ = try MachOFile.read(data, file: "mutant").entitlements(file: "mutant")
        case .loader: _ = try EntitlementsLoader.read(data, file: "mutant", variables: XcodeVariables(team: "T", bundleID: "b"))
        }
    }

    /// Every prefix length in a stride, then one flipped bit at offsets spread through the file.
    static func mutants(of bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        let stride = max(1, bytes.count / 97)
        for length in Swift.stride(from: 0, to: bytes.count, by: stride) { out.append(Array(bytes.prefix(length))) }
        let offsets = Set(
            (0..<min(bytes.count, 64)).map { $0 }
                + Swift.stride(from: 0, to: bytes.count, by: max(1, bytes.count / 61)).map { $0 })
        for offset in offsets.sorted() {
            for bit in [0, 3, 7] {
                var copy = bytes
                copy[offset] ^= UInt8(1 << bit)
                out.append(copy)
            }
        }
        return out
    }

    static func fatFixture() throws -> [UInt8] {
        let xml = try FixtureFiles.bytes("src/ledger.plist")
        return MachOBuilder.universal(
            [
                (MachOBuilder.arm64, try FixtureFiles.bytes("ledger-arm64.o")),
                (
                    MachOBuilder.x86_64,
                    MachOBuilder.thin(
                        cpu: MachOBuilder.x86_64, section: nil, signature: MachOBuilder.signature(entitlements: xml))
                ),
            ], wide: false)
    }

    @Test(
        "mutated fixtures are read or rejected with a typed one-line error, never a crash",
        arguments: [
            ("src/ledger.plist", Reader.plist), ("ledger.bplist", .plist), ("codesign-colon.txt", .codesign),
            ("codesign-text.txt", .codesign), ("codesign-text-nested.txt", .codesign), ("embedded.mobileprovision", .profile),
            ("ledger-arm64.o", .machO), ("ledger-x86_64.o", .machO), ("ledger-arm64.o", .loader),
            ("embedded.mobileprovision", .loader),
            ("Ledger.entitlements", .loader), ("fat", .machO),
            ("ledger-i386.o", .machO), ("ledger-armv7-arm64", .machO), ("ledger-i386-x86_64", .loader),
            ("profile-unwrapped.plist", .loader), ("profile-binary.mobileprovision", .loader),
            ("codesign-stderr-stdout.txt", .loader),
        ])
    func mutants(name: String, reader: Reader) throws {
        let original = name == "fat" ? try Self.fatFixture() : try FixtureFiles.bytes(name)
        try Self.read(original, with: reader)
        var rejected = 0
        for mutant in Self.mutants(of: original) {
            do {
                try Self.read(mutant, with: reader)
            } catch {
                rejected += 1
                #expect(error.file == "mutant")
                #expect(!error.description.contains("\n"))
            }
        }
        #expect(rejected > 0)
    }

    @Test("an app bundle whose executable is truncated reports the executable")
    func truncatedApp() throws {
        let directory = try TemporaryDirectory("app")
        try FileManager.default.copyItem(atPath: FixtureFiles.path("Ledger.app"), toPath: directory.file("Ledger.app"))
        let executable = directory.file("Ledger.app/Ledger")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: executable))
        try bytes.prefix(40).write(to: URL(fileURLWithPath: executable))
        let error = #expect(throws: EntitlementsError.self) { try AppBundle.read(folder: directory.file("Ledger.app")) }
        #expect(error?.file == directory.file("Ledger.app/Ledger"))
        #expect(error?.problem.hasPrefix("truncated:") == true)
    }

    @Test(
        "an app bundle with a mutated Info.plist, executable or profile is read or rejected naming that file",
        arguments: ["Info.plist", "Ledger", "embedded.mobileprovision"])
    func mutatedApp(member: String) throws {
        let directory = try TemporaryDirectory("app")
        let folder = directory.file("Ledger.app")
        try FileManager.default.copyItem(atPath: FixtureFiles.path("Ledger.app"), toPath: folder)
        let path = folder + "/" + member
        let original = try FixtureFiles.bytes("Ledger.app/" + member)
        let mutants = Self.mutants(of: original)
        for mutant in Swift.stride(from: 0, to: mutants.count, by: 3).map({ mutants[$0] }) {
            try Data(mutant).write(to: URL(fileURLWithPath: path))
            do {
                _ = try AppBundle.read(folder: folder)
            } catch {
                #expect(error.file.hasPrefix(folder), "\(error)")
                #expect(!error.description.contains("\n"))
            }
        }
    }
}

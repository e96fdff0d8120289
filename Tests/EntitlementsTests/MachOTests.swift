import Entitlements
import Foundation
import Testing

@Suite struct MachOTests {
    @Test(
        "clang's simulator object files carry the entitlements in __TEXT,__entitlements",
        arguments: [
            ("ledger-arm64.o", "arm64"), ("ledger-x86_64.o", "x86_64"),
        ])
    func objectFiles(name: String, architecture: String) throws {
        let file = try MachOFile.read(try FixtureFiles.data(name), file: name)
        #expect(file.slices.map(\.architecture) == [architecture])
        #expect(file.slices.first?.isSigned == false)
        let found = try file.entitlements(file: name)
        #expect(found.entitlements == (try FixtureFiles.ledger()))
        #expect(found.origin == "\(architecture) __TEXT,__entitlements")
        #expect(found.warnings.isEmpty)
    }

    @Test("universal files (FAT_MAGIC and FAT_MAGIC_64) read every slice", arguments: [false, true])
    func universal(wide: Bool) throws {
        let fat = MachOBuilder.universal(
            [
                (MachOBuilder.x86_64, try FixtureFiles.bytes("ledger-x86_64.o")),
                (MachOBuilder.arm64, try FixtureFiles.bytes("ledger-arm64.o")),
            ], wide: wide)
        let file = try MachOFile.read(Data(fat), file: "fat")
        #expect(file.slices.map(\.architecture) == ["x86_64", "arm64"])
        let found = try file.entitlements(file: "fat")
        #expect(found.entitlements == (try FixtureFiles.ledger()))
        #expect(found.warnings.isEmpty)
    }

    @Test("a device build's entitlements come from the 0xfade7171 blob in its code signature")
    func signature() throws {
        let xml = try FixtureFiles.bytes("src/ledger.plist")
        let image = MachOBuilder.thin(cpu: MachOBuilder.arm64, section: nil, signature: MachOBuilder.signature(entitlements: xml))
        let found = try MachOFile.read(Data(image), file: "device").entitlements(file: "device")
        #expect(found.entitlements == (try FixtureFiles.ledger()))
        #expect(found.origin == "arm64 code signature")
    }

    @Test("the section wins over an ad hoc signature's get-task-allow, silently; a real difference is a warning")
    func sectionFirst() throws {
        let xml = try FixtureFiles.bytes("src/ledger.plist")
        let adHoc = Array(#"<plist version="1.0"><dict><key>get-task-allow</key><true/></dict></plist>"#.utf8)
        let simulator = MachOBuilder.thin(
            cpu: MachOBuilder.arm64, section: xml + [0], signature: MachOBuilder.signature(entitlements: adHoc))
        let quiet = try MachOFile.read(Data(simulator), file: "sim").entitlements(file: "sim")
        #expect(quiet.entitlements == (try FixtureFiles.ledger()))
        #expect(quiet.warnings.isEmpty)

        let other = Array(#"<plist version="1.0"><dict><key>keychain-access-groups</key><array/></dict></plist>"#.utf8)
        let mixed = MachOBuilder.thin(
            cpu: MachOBuilder.arm64, section: xml, signature: MachOBuilder.signature(entitlements: other))
        let loud = try MachOFile.read(Data(mixed), file: "mixed").entitlements(file: "mixed")
        #expect(loud.entitlements == (try FixtureFiles.ledger()))
        #expect(
            loud.warnings == [
                "mixed: arm64 code signature entitlements differ from its __TEXT,__entitlements section; the section is used"
            ])
    }

    @Test("slices that disagree, and an image with no entitlements, are warnings, not errors")
    func disagreements() throws {
        let xml = try FixtureFiles.bytes("src/ledger.plist")
        let empty = MachOBuilder.thin(
            cpu: MachOBuilder.x86_64, section: nil, signature: MachOBuilder.signature(entitlements: nil))
        let fat = MachOBuilder.universal([
            (MachOBuilder.arm64, MachOBuilder.thin(cpu: MachOBuilder.arm64, section: xml, signature: nil)),
            (MachOBuilder.x86_64, empty),
        ])
        let found = try MachOFile.read(Data(fat), file: "fat").entitlements(file: "fat")
        #expect(found.warnings == ["fat: slices disagree; arm64's entitlements are used: x86_64 has none"])

        let none = try MachOFile.read(Data(empty), file: "bare").entitlements(file: "bare")
        #expect(none.entitlements.values.isEmpty)
        #expect(none.warnings.first?.contains("errSecMissingEntitlement (-34018)") == true)
    }

    @Test(
        "what is not a readable Mach-O is one line naming the problem",
        arguments: [
            (
                [0xce, 0xfa, 0xed, 0xfe, 12, 0, 0, 0, 9, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0],
                "m: truncated: load commands (sizeofcmds 100) at offset 0x1c needs 100 bytes, but only 0 remain"
            ),
            ([0xfe, 0xed, 0xfa, 0xcf] + [UInt8](repeating: 0, count: 28), "m: big-endian Mach-O (PowerPC) is not supported"),
            ([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0], "m: wrong magic 0x464c457f at offset 0x0: not a Mach-O image"),
            ([0xcf, 0xfa, 0xed, 0xfe, 0x0c, 0, 0, 1], "m: truncated: cpusubtype at offset 0x8 needs 4 bytes, but only 0 remain"),
            ([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52], "m: universal header claims 52 architectures: not a universal Mach-O file"),
            (
                [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 1, 1, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 64],
                "m: truncated: fat_arch size at offset 0x14 needs 4 bytes, but only 0 remain"
            ),
            (
                [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 1, 1, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 28, 0, 0, 1, 0, 0, 0, 0, 4],
                "m: truncated: architecture 0 at offset 0x1c spans 256 bytes, beyond the file's 28"
            ),
        ])
    func malformed(bytes: [UInt8], message: String) {
        let error = #expect(throws: EntitlementsError.self) { try MachOFile.read(Data(bytes), file: "m") }
        #expect(error?.description == message)
    }

    @Test("a signature with the wrong magic, or an entitlements slot with the wrong blob magic, is rejected")
    func badSignatures() {
        let wrongSuper = MachOBuilder.thin(
            cpu: MachOBuilder.arm64, section: nil, signature: MachOBuilder.be32(0xfade_0c00) + [UInt8](repeating: 0, count: 8))
        let error = #expect(throws: EntitlementsError.self) { try MachOFile.read(Data(wrongSuper), file: "s") }
        #expect(
            error?.description
                == "s: code signature at offset 0x30 has wrong magic 0xfade0c00, expected 0xfade0cc0 (embedded signature SuperBlob)"
        )

        let wrongBlob = MachOBuilder.thin(
            cpu: MachOBuilder.arm64, section: nil,
            signature: MachOBuilder.superBlob([(5, MachOBuilder.blob(magic: 0xfade_7172, [0x30, 0]))]))
        let blobError = #expect(throws: EntitlementsError.self) { try MachOFile.read(Data(wrongBlob), file: "s") }
        #expect(
            blobError?.description == "s: entitlements slot of the code signature has wrong magic 0xfade7172, expected 0xfade7171"
        )
    }
}

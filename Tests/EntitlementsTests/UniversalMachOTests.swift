import Entitlements
import Foundation
import Testing

/// 32-bit slices (armv7, i386), universal files that mix them with 64-bit ones, the slice that wins when slices
/// disagree, and the sections that hold no contents (dSYM companions).
@Suite struct UniversalMachOTests {
    static func plist(_ groups: [String], extra: String = "") -> [UInt8] {
        let strings = groups.map { "<string>\($0)</string>" }.joined()
        return Array(
            #"<plist version="1.0"><dict><key>keychain-access-groups</key><array>\#(strings)</array>\#(extra)</dict></plist>"#
                .utf8)
    }

    @Test(
        "clang's 32-bit objects and lipo-style universal files read every slice",
        arguments: [
            ("ledger-armv7.o", ["armv7"]), ("ledger-i386.o", ["i386"]),
            ("ledger-armv7-arm64", ["armv7", "arm64"]), ("ledger-i386-x86_64", ["i386", "x86_64"]),
        ])
    func fixtures(name: String, architectures: [String]) throws {
        let file = try MachOFile.read(try FixtureFiles.data(name), file: name)
        #expect(file.slices.map(\.architecture) == architectures)
        let found = try file.entitlements(file: name)
        #expect(found.entitlements == (try FixtureFiles.ledger()))
        #expect(found.origin == architectures.map { "\($0) __TEXT,__entitlements" }.joined(separator: ", "))
        #expect(found.warnings.isEmpty)
    }

    @Test(
        "a 32-bit device slice's entitlements come from its code signature, in FAT_MAGIC and FAT_MAGIC_64 files",
        arguments: [false, true])
    func signature32(wide: Bool) throws {
        let xml = try FixtureFiles.bytes("src/ledger.plist")
        let armv7 = MachOBuilder.thin(
            cpu: MachOBuilder.arm, section: nil, signature: MachOBuilder.signature(entitlements: xml), wide: false,
            subtype: MachOBuilder.armv7)
        let arm64 = MachOBuilder.thin(cpu: MachOBuilder.arm64, section: nil, signature: MachOBuilder.signature(entitlements: xml))
        let fat = MachOBuilder.universal([(MachOBuilder.arm, armv7), (MachOBuilder.arm64, arm64)], wide: wide)
        let found = try MachOFile.read(Data(fat), file: "device").entitlements(file: "device")
        #expect(found.entitlements == (try FixtureFiles.ledger()))
        #expect(found.origin == "armv7 code signature, arm64 code signature")
        #expect(found.warnings.isEmpty)
    }

    @Test("slices that disagree: the 64-bit slice wins, and the warning says which slice holds which key")
    func disagreeing() throws {
        let armv7 = MachOBuilder.thin(
            cpu: MachOBuilder.arm, section: nil,
            signature: MachOBuilder.signature(
                entitlements: Self.plist(["T.old"], extra: "<key>aps-environment</key><string>production</string>")),
            wide: false, subtype: MachOBuilder.armv7)
        let arm64 = MachOBuilder.thin(
            cpu: MachOBuilder.arm64, section: nil, signature: MachOBuilder.signature(entitlements: Self.plist(["T.new"])))
        let i386 = MachOBuilder.thin(cpu: MachOBuilder.i386, section: nil, signature: nil, wide: false)
        let fat = MachOBuilder.universal([(MachOBuilder.arm, armv7), (MachOBuilder.arm64, arm64), (MachOBuilder.i386, i386)])
        let found = try MachOFile.read(Data(fat), file: "fat").entitlements(file: "fat")
        #expect(found.entitlements.keychainAccessGroups == ["T.new"])
        #expect(
            found.warnings == [
                "fat: slices disagree; arm64's entitlements are used: aps-environment is \"production\" in armv7, "
                    + "absent in arm64; keychain-access-groups is [\"T.new\"] in arm64, [\"T.old\"] in armv7; i386 has none"
            ])
    }

    @Test("an error inside one slice of a universal file names the slice")
    func sliceError() throws {
        var bytes = try FixtureFiles.bytes("ledger-armv7-arm64")
        // The armv7 slice starts at 0x4000 (lipo's 2^14 alignment); its sizeofcmds is at +20.
        bytes[0x4000 + 20] = 0xff
        bytes[0x4000 + 21] = 0xff
        let error = #expect(throws: EntitlementsError.self) { try MachOFile.read(Data(bytes), file: "fat") }
        #expect(
            error?.description
                == "fat: armv7 slice (architecture 0): truncated: load commands (sizeofcmds 65535) at offset 0x401c "
                + "needs 65535 bytes, but only 1076 remain")
    }

    @Test(
        "an ad hoc signature's com.apple.security.get-task-allow (recent simulator builds) is no disagreement",
        arguments: ["get-task-allow", "com.apple.security.get-task-allow"])
    func adHoc(key: String) throws {
        let xml = try FixtureFiles.bytes("src/ledger.plist")
        let adHoc = Array(#"<plist version="1.0"><dict><key>\#(key)</key><true/></dict></plist>"#.utf8)
        let simulator = MachOBuilder.thin(
            cpu: MachOBuilder.arm64, section: xml, signature: MachOBuilder.signature(entitlements: adHoc))
        let found = try MachOFile.read(Data(simulator), file: "sim").entitlements(file: "sim")
        #expect(found.entitlements == (try FixtureFiles.ledger()))
        #expect(found.warnings.isEmpty)
    }

    @Test("a dSYM companion's section header (file offset 0) is not read as a plist: one line naming the slice")
    func dSYM() throws {
        let file = try MachOFile.read(try FixtureFiles.data("ledger-arm64.dsym"), file: "Ledger.dSYM")
        #expect(file.slices.first?.isDebugCompanion == true)
        #expect(file.slices.first?.sectionWithoutContents == true)
        let error = #expect(throws: EntitlementsError.self) { try file.entitlements(file: "Ledger.dSYM") }
        #expect(
            error?.description
                == "Ledger.dSYM: arm64 is a dSYM companion (MH_DSYM): it keeps the executable's section headers "
                + "(__TEXT,__entitlements at file offset 0) but not their contents; read the app's executable instead")
        let shown = #expect(throws: EntitlementsError.self) {
            try EntitlementsShowCommand.run(
                input: FixtureFiles.path("ledger-arm64.dsym"), team: nil, bundleID: nil, buildsRoot: "", info: false)
        }
        #expect(shown?.description.contains("arm64 is a dSYM companion") == true)
    }

    @Test("an executable's section header with file offset 0 reads as no section, not as the Mach-O header")
    func offsetZero() throws {
        var bytes = try FixtureFiles.bytes("ledger-arm64.o")
        let dsym = try FixtureFiles.bytes("ledger-arm64.dsym")
        // The dSYM fixture differs from the object only in filetype (byte 12) and the section's offset.
        for index in bytes.indices where index != 12 { bytes[index] = dsym[index] }
        let found = try MachOFile.read(Data(bytes), file: "exe").entitlements(file: "exe")
        #expect(found.entitlements.values.isEmpty)
        #expect(found.origin == "arm64: none")
    }
}

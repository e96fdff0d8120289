import Entitlements
import Foundation
import Testing

@Suite struct ProvisioningProfileTests {
    @Test("the openssl-signed profile yields its Entitlements, TeamIdentifier and ExpirationDate")
    func fixture() throws {
        let profile = try ProvisioningProfile.read(
            try FixtureFiles.data("embedded.mobileprovision"), file: "embedded.mobileprovision")
        #expect(profile.teamIdentifiers == ["Q7X2K9M4TD"])
        #expect(profile.expirationDate.map { PlistValue.date($0).rendered } == "2031-01-01T00:00:00Z")
        #expect(profile.name == "Ledger App Store")
        #expect(profile.entitlements.keychainAccessGroups == ["Q7X2K9M4TD.*", "com.apple.token"])
        #expect(profile.entitlements.teamIdentifier == "Q7X2K9M4TD")
    }

    @Test(
        "the plist is found by walking the DER, in primitive and in chunked, indefinite-length BER form",
        arguments: [false, true])
    func berForms(chunked: Bool) throws {
        let plist = try FixtureFiles.bytes("src/profile.plist")
        let content = chunked ? DERBuilder.chunkedOctetString(plist, size: 100) : DERBuilder.octetString(plist)
        let profile = try ProvisioningProfile.read(Data(DERBuilder.envelope(eContent: content)), file: "p")
        #expect(profile.teamIdentifiers == ["Q7X2K9M4TD"])
        #expect(profile.entitlements.applicationIdentifier == "Q7X2K9M4TD.com.example.ledger")
    }

    @Test(
        "an envelope that is not SignedData with embedded plist content is one line naming the problem",
        arguments: [
            (DERBuilder.envelope(eContent: nil), "p: SignedData has no embedded content (a detached signature)"),
            (
                DERBuilder.envelope(eContent: DERBuilder.octetString([]), outerType: DERBuilder.data),
                "p: CMS content type is 1.2.840.113549.1.7.1, not signedData (1.2.840.113549.1.7.2)"
            ),
            (
                DERBuilder.envelope(eContent: DERBuilder.octetString([]), innerType: DERBuilder.signedData),
                "p: encapsulated content type is 1.2.840.113549.1.7.2, not data (1.2.840.113549.1.7.1)"
            ),
            (
                DERBuilder.envelope(eContent: DERBuilder.tlv(0x02, [1])),
                "p: DER at offset 0x32: expected an OCTET STRING, found tag 0x2"
            ),
            (
                DERBuilder.envelope(eContent: DERBuilder.octetString(Array("<plist version=\"1.0\"><array/></plist>".utf8))),
                "p: property list is an array, not a dictionary"
            ),
            (
                DERBuilder.envelope(eContent: DERBuilder.octetString(Array("<plist version=\"1.0\"><dict/></plist>".utf8))),
                "p: profile has no Entitlements dictionary"
            ),
            (Array("hello".utf8), "p: not a CMS envelope: starts with 0x68, not a DER SEQUENCE (0x30)"),
            (
                [0x30, 0x84, 0xff, 0xff, 0xff, 0xff],
                "p: DER at offset 0x0: truncated: element of 4294967295 bytes, only 0 remain"
            ),
            ([0x30, 0x80, 0x06, 0x01], "p: DER at offset 0x2: truncated: element of 1 bytes, only 0 remain"),
        ])
    func malformed(bytes: [UInt8], message: String) {
        let error = #expect(throws: EntitlementsError.self) { try ProvisioningProfile.read(Data(bytes), file: "p") }
        #expect(error?.description == message)
    }

    @Test("the loader takes a profile by its content and describes it")
    func loader() throws {
        let loaded = try EntitlementsLoader.loadFile(FixtureFiles.path("embedded.mobileprovision"), variables: XcodeVariables())
        #expect(loaded.kind == .provisioningProfile)
        #expect(loaded.summary == "provisioning profile \"Ledger App Store\", team Q7X2K9M4TD, expires 2031-01-01T00:00:00Z")
    }
}

import Foundation

/// The property list inside an `embedded.mobileprovision` (a CMS SignedData envelope), found by walking its DER.
public struct ProvisioningProfile: Sendable, Equatable {
    /// The entitlements the profile allows (access groups may hold wildcards such as `TEAMID.*`).
    public let entitlements: Entitlements
    /// The `TeamIdentifier` array, usually one Team ID.
    public let teamIdentifiers: [String]
    /// `ExpirationDate`, when present.
    public let expirationDate: Date?
    /// `Name`, when present.
    public let name: String?
    /// The whole property list, for callers that want other keys.
    public let plist: [String: PlistValue]

    static let signedDataOID = "1.2.840.113549.1.7.2"
    static let dataOID = "1.2.840.113549.1.7.1"

    /// Reads a profile from its DER bytes.
    /// - Throws: when the bytes are not CMS SignedData with embedded content, or the content is not a plist dictionary.
    public static func read(_ data: Data, file: String) throws(EntitlementsError) -> ProvisioningProfile {
        let plistBytes = try signedContent(of: [UInt8](data), file: file)
        let plist = try PropertyListReader.dictionary(from: Data(plistBytes), file: file)
        guard let entitlementsValue = plist["Entitlements"] else {
            throw EntitlementsError(file, "profile has no Entitlements dictionary")
        }
        guard let entries = entitlementsValue.dictionary else {
            throw EntitlementsError(file, "profile's Entitlements is \(entitlementsValue.typeNameWithArticle), not a dictionary")
        }
        var expiration: Date?
        if case .date(let date)? = plist["ExpirationDate"] { expiration = date }
        return ProvisioningProfile(
            entitlements: Entitlements(entries),
            teamIdentifiers: plist["TeamIdentifier"]?.strings ?? [],
            expirationDate: expiration,
            name: plist["Name"]?.string,
            plist: plist)
    }

    /// ContentInfo -> [0] SignedData -> encapContentInfo -> [0] eContent OCTET STRING.
    static func signedContent(of bytes: [UInt8], file: String) throws(EntitlementsError) -> [UInt8] {
        let der = DERReader(bytes, file: file)
        guard let first = bytes.first else { throw EntitlementsError(file, "empty file") }
        guard first == 0x30 else {
            throw EntitlementsError(file, "not a CMS envelope: starts with \(String.hex(first)), not a DER SEQUENCE (0x30)")
        }
        let contentInfo = try der.node(at: 0, limit: bytes.count)
        let info = try der.children(of: contentInfo)
        guard info.count >= 2, info[0].tag == 0x06 else {
            throw EntitlementsError(file, "not a CMS ContentInfo: expected a content type and content")
        }
        let contentType = DERReader.objectIdentifier(der.content(of: info[0]))
        guard contentType == signedDataOID else {
            throw EntitlementsError(file, "CMS content type is \(contentType), not signedData (\(signedDataOID))")
        }
        guard info[1].tag == 0xa0, let signedData = try der.children(of: info[1]).first, signedData.tag == 0x30 else {
            throw EntitlementsError(file, "CMS ContentInfo has no [0] SignedData SEQUENCE")
        }
        let fields = try der.children(of: signedData)
        guard fields.count >= 3, fields[0].tag == 0x02, fields[1].tag == 0x31, fields[2].tag == 0x30 else {
            throw EntitlementsError(file, "SignedData lacks version, digestAlgorithms and encapContentInfo")
        }
        let encapsulated = try der.children(of: fields[2])
        guard let typeNode = encapsulated.first, typeNode.tag == 0x06 else {
            throw EntitlementsError(file, "encapContentInfo has no content type")
        }
        let innerType = DERReader.objectIdentifier(der.content(of: typeNode))
        guard innerType == dataOID else {
            throw EntitlementsError(file, "encapsulated content type is \(innerType), not data (\(dataOID))")
        }
        guard encapsulated.count >= 2, encapsulated[1].tag == 0xa0 else {
            throw EntitlementsError(file, "SignedData has no embedded content (a detached signature)")
        }
        guard let octetString = try der.children(of: encapsulated[1]).first else {
            throw EntitlementsError(file, "eContent [0] is empty")
        }
        return try der.octets(of: octetString)
    }
}

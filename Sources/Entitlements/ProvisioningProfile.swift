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

    /// Reads a profile by its content: a CMS envelope (what `embedded.mobileprovision` is), or the property list
    /// inside one (what `security cms -D` or `openssl cms -verify` prints), XML or binary, whatever the file name.
    /// - Throws: when the bytes are neither, or the plist is not a profile with an Entitlements dictionary.
    public static func read(_ data: Data, file: String) throws(EntitlementsError) -> ProvisioningProfile {
        let bytes = [UInt8](data.prefix(64))
        guard PropertyListReader.looksLikePlist(bytes) else {
            let plistBytes = try signedContent(of: [UInt8](data), file: file)
            return try ProvisioningProfile(
                plist: try PropertyListReader.dictionary(from: Data(plistBytes), file: file), file: file)
        }
        return try ProvisioningProfile(plist: try PropertyListReader.dictionary(from: data, file: file), file: file)
    }

    /// Whether `bytes` start like a CMS envelope: a DER SEQUENCE with a long-form length (a profile is hundreds of
    /// bytes), not text that starts with "0".
    static func looksLikeEnvelope(_ bytes: [UInt8]) -> Bool {
        bytes.count > 1 && bytes[0] == 0x30 && bytes[1] >= 0x80
    }

    /// Keys every profile has and no entitlements dictionary does; two of them beside an `Entitlements` dictionary
    /// tell an unwrapped profile from entitlements.
    static let profileKeys: Set<String> = [
        "AppIDName", "ApplicationIdentifierPrefix", "CreationDate", "DeveloperCertificates", "ExpirationDate", "Name",
        "Platform", "ProvisionedDevices", "ProvisionsAllDevices", "TeamIdentifier", "TeamName", "TimeToLive", "UUID",
        "Version",
    ]

    /// Whether a property list is a provisioning profile's rather than a build's entitlements.
    static func isProfile(_ plist: [String: PlistValue]) -> Bool {
        plist["Entitlements"]?.dictionary != nil && plist.keys.filter(profileKeys.contains).count >= 2
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

extension ProvisioningProfile {
    /// Takes the profile's fields from its property list.
    /// - Throws: when there is no `Entitlements` dictionary or its keychain keys are mistyped.
    init(plist: [String: PlistValue], file: String) throws(EntitlementsError) {
        guard let entitlementsValue = plist["Entitlements"] else {
            throw EntitlementsError(file, "profile has no Entitlements dictionary")
        }
        guard let entries = entitlementsValue.dictionary else {
            throw EntitlementsError(file, "profile's Entitlements is \(entitlementsValue.typeNameWithArticle), not a dictionary")
        }
        var expiration: Date?
        if case .date(let date)? = plist["ExpirationDate"] { expiration = date }
        self.init(
            entitlements: try Entitlements(checking: entries, file: file, place: "profile's Entitlements"),
            teamIdentifiers: plist["TeamIdentifier"]?.strings ?? [],
            expirationDate: expiration,
            name: plist["Name"]?.string,
            plist: plist)
    }
}

import Foundation

// The keychain constants iOS code uses, with the raw strings securityd reads (behaviour file, section 0).
// `nonisolated(unsafe)`: they are immutable NSString globals, which Swift 6 cannot prove Sendable.

// MARK: Item classes

public nonisolated(unsafe) let kSecClass: CFString = "class"
public nonisolated(unsafe) let kSecClassGenericPassword: CFString = "genp"
public nonisolated(unsafe) let kSecClassInternetPassword: CFString = "inet"
public nonisolated(unsafe) let kSecClassCertificate: CFString = "cert"
public nonisolated(unsafe) let kSecClassKey: CFString = "keys"
public nonisolated(unsafe) let kSecClassIdentity: CFString = "idnt"

// MARK: Attributes

public nonisolated(unsafe) let kSecAttrAccessible: CFString = "pdmn"
public nonisolated(unsafe) let kSecAttrAccessControl: CFString = "accc"
public nonisolated(unsafe) let kSecAttrAccessGroup: CFString = "agrp"
public nonisolated(unsafe) let kSecAttrSynchronizable: CFString = "sync"
public nonisolated(unsafe) let kSecAttrSynchronizableAny: CFString = "syna"
public nonisolated(unsafe) let kSecAttrCreationDate: CFString = "cdat"
public nonisolated(unsafe) let kSecAttrModificationDate: CFString = "mdat"
public nonisolated(unsafe) let kSecAttrDescription: CFString = "desc"
public nonisolated(unsafe) let kSecAttrComment: CFString = "icmt"
public nonisolated(unsafe) let kSecAttrCreator: CFString = "crtr"
public nonisolated(unsafe) let kSecAttrType: CFString = "type"
public nonisolated(unsafe) let kSecAttrLabel: CFString = "labl"
public nonisolated(unsafe) let kSecAttrIsInvisible: CFString = "invi"
public nonisolated(unsafe) let kSecAttrIsNegative: CFString = "nega"
public nonisolated(unsafe) let kSecAttrAccount: CFString = "acct"
public nonisolated(unsafe) let kSecAttrService: CFString = "svce"
public nonisolated(unsafe) let kSecAttrGeneric: CFString = "gena"
public nonisolated(unsafe) let kSecAttrSecurityDomain: CFString = "sdmn"
public nonisolated(unsafe) let kSecAttrServer: CFString = "srvr"
public nonisolated(unsafe) let kSecAttrProtocol: CFString = "ptcl"
public nonisolated(unsafe) let kSecAttrAuthenticationType: CFString = "atyp"
public nonisolated(unsafe) let kSecAttrPort: CFString = "port"
public nonisolated(unsafe) let kSecAttrPath: CFString = "path"
public nonisolated(unsafe) let kSecAttrSubject: CFString = "subj"
public nonisolated(unsafe) let kSecAttrIssuer: CFString = "issr"
public nonisolated(unsafe) let kSecAttrSerialNumber: CFString = "slnr"
public nonisolated(unsafe) let kSecAttrSubjectKeyID: CFString = "skid"
public nonisolated(unsafe) let kSecAttrPublicKeyHash: CFString = "pkhh"
public nonisolated(unsafe) let kSecAttrCertificateType: CFString = "ctyp"
public nonisolated(unsafe) let kSecAttrCertificateEncoding: CFString = "cenc"
public nonisolated(unsafe) let kSecAttrKeyClass: CFString = "kcls"
public nonisolated(unsafe) let kSecAttrApplicationLabel: CFString = "klbl"
public nonisolated(unsafe) let kSecAttrIsPermanent: CFString = "perm"
public nonisolated(unsafe) let kSecAttrApplicationTag: CFString = "atag"
public nonisolated(unsafe) let kSecAttrKeyType: CFString = "type"
public nonisolated(unsafe) let kSecAttrKeySizeInBits: CFString = "bsiz"
public nonisolated(unsafe) let kSecAttrEffectiveKeySize: CFString = "esiz"
public nonisolated(unsafe) let kSecAttrCanEncrypt: CFString = "encr"
public nonisolated(unsafe) let kSecAttrCanDecrypt: CFString = "decr"
public nonisolated(unsafe) let kSecAttrCanDerive: CFString = "drve"
public nonisolated(unsafe) let kSecAttrCanSign: CFString = "sign"
public nonisolated(unsafe) let kSecAttrCanVerify: CFString = "vrfy"
public nonisolated(unsafe) let kSecAttrCanWrap: CFString = "wrap"
public nonisolated(unsafe) let kSecAttrCanUnwrap: CFString = "unwp"
public nonisolated(unsafe) let kSecAttrSyncViewHint: CFString = "vwht"
public nonisolated(unsafe) let kSecAttrTokenID: CFString = "tkid"

// MARK: Accessibility values

public nonisolated(unsafe) let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
public nonisolated(unsafe) let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
public nonisolated(unsafe) let kSecAttrAccessibleAlways: CFString = "dk"
public nonisolated(unsafe) let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
public nonisolated(unsafe) let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
public nonisolated(unsafe) let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"
public nonisolated(unsafe) let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"

// MARK: Internet protocols

public nonisolated(unsafe) let kSecAttrProtocolFTP: CFString = "ftp "
public nonisolated(unsafe) let kSecAttrProtocolFTPAccount: CFString = "ftpa"
public nonisolated(unsafe) let kSecAttrProtocolHTTP: CFString = "http"
public nonisolated(unsafe) let kSecAttrProtocolIRC: CFString = "irc "
public nonisolated(unsafe) let kSecAttrProtocolNNTP: CFString = "nntp"
public nonisolated(unsafe) let kSecAttrProtocolPOP3: CFString = "pop3"
public nonisolated(unsafe) let kSecAttrProtocolSMTP: CFString = "smtp"
public nonisolated(unsafe) let kSecAttrProtocolSOCKS: CFString = "sox "
public nonisolated(unsafe) let kSecAttrProtocolIMAP: CFString = "imap"
public nonisolated(unsafe) let kSecAttrProtocolLDAP: CFString = "ldap"
public nonisolated(unsafe) let kSecAttrProtocolAppleTalk: CFString = "atlk"
public nonisolated(unsafe) let kSecAttrProtocolAFP: CFString = "afp "
public nonisolated(unsafe) let kSecAttrProtocolTelnet: CFString = "teln"
public nonisolated(unsafe) let kSecAttrProtocolSSH: CFString = "ssh "
public nonisolated(unsafe) let kSecAttrProtocolFTPS: CFString = "ftps"
public nonisolated(unsafe) let kSecAttrProtocolHTTPS: CFString = "htps"
public nonisolated(unsafe) let kSecAttrProtocolHTTPProxy: CFString = "htpx"
public nonisolated(unsafe) let kSecAttrProtocolHTTPSProxy: CFString = "htsx"
public nonisolated(unsafe) let kSecAttrProtocolFTPProxy: CFString = "ftpx"
public nonisolated(unsafe) let kSecAttrProtocolSMB: CFString = "smb "
public nonisolated(unsafe) let kSecAttrProtocolRTSP: CFString = "rtsp"
public nonisolated(unsafe) let kSecAttrProtocolRTSPProxy: CFString = "rtsx"
public nonisolated(unsafe) let kSecAttrProtocolDAAP: CFString = "daap"
public nonisolated(unsafe) let kSecAttrProtocolEPPC: CFString = "eppc"
public nonisolated(unsafe) let kSecAttrProtocolIPP: CFString = "ipp "
public nonisolated(unsafe) let kSecAttrProtocolNNTPS: CFString = "ntps"
public nonisolated(unsafe) let kSecAttrProtocolLDAPS: CFString = "ldps"
public nonisolated(unsafe) let kSecAttrProtocolTelnetS: CFString = "tels"
public nonisolated(unsafe) let kSecAttrProtocolIMAPS: CFString = "imps"
public nonisolated(unsafe) let kSecAttrProtocolIRCS: CFString = "ircs"
public nonisolated(unsafe) let kSecAttrProtocolPOP3S: CFString = "pops"

// MARK: Authentication types

public nonisolated(unsafe) let kSecAttrAuthenticationTypeNTLM: CFString = "ntlm"
public nonisolated(unsafe) let kSecAttrAuthenticationTypeMSN: CFString = "msna"
public nonisolated(unsafe) let kSecAttrAuthenticationTypeDPA: CFString = "dpaa"
public nonisolated(unsafe) let kSecAttrAuthenticationTypeRPA: CFString = "rpaa"
public nonisolated(unsafe) let kSecAttrAuthenticationTypeHTTPBasic: CFString = "http"
public nonisolated(unsafe) let kSecAttrAuthenticationTypeHTTPDigest: CFString = "httd"
public nonisolated(unsafe) let kSecAttrAuthenticationTypeHTMLForm: CFString = "form"
public nonisolated(unsafe) let kSecAttrAuthenticationTypeDefault: CFString = "dflt"

// MARK: Key classes and types

public nonisolated(unsafe) let kSecAttrKeyClassPublic: CFString = "0"
public nonisolated(unsafe) let kSecAttrKeyClassPrivate: CFString = "1"
public nonisolated(unsafe) let kSecAttrKeyClassSymmetric: CFString = "2"
public nonisolated(unsafe) let kSecAttrKeyTypeRSA: CFString = "42"
public nonisolated(unsafe) let kSecAttrKeyTypeEC: CFString = "73"
public nonisolated(unsafe) let kSecAttrKeyTypeECSECPrimeRandom: CFString = "73"

// MARK: Values

public nonisolated(unsafe) let kSecValueData: CFString = "v_Data"
public nonisolated(unsafe) let kSecValueRef: CFString = "v_Ref"
public nonisolated(unsafe) let kSecValuePersistentRef: CFString = "v_PersistentRef"

// MARK: Return types

public nonisolated(unsafe) let kSecReturnData: CFString = "r_Data"
public nonisolated(unsafe) let kSecReturnAttributes: CFString = "r_Attributes"
public nonisolated(unsafe) let kSecReturnRef: CFString = "r_Ref"
public nonisolated(unsafe) let kSecReturnPersistentRef: CFString = "r_PersistentRef"

// MARK: Match keys

public nonisolated(unsafe) let kSecMatchLimit: CFString = "m_Limit"
public nonisolated(unsafe) let kSecMatchLimitOne: CFString = "m_LimitOne"
public nonisolated(unsafe) let kSecMatchLimitAll: CFString = "m_LimitAll"
// Certificate and identity search keys: a search accepts and ignores them (there are no
// certificates to judge); an update or delete with any of them is errSecParam (row 27).
public nonisolated(unsafe) let kSecMatchPolicy: CFString = "m_Policy"
public nonisolated(unsafe) let kSecMatchItemList: CFString = "m_ItemList"
public nonisolated(unsafe) let kSecMatchSearchList: CFString = "m_SearchList"
public nonisolated(unsafe) let kSecMatchIssuers: CFString = "m_Issuers"
public nonisolated(unsafe) let kSecMatchEmailAddressIfPresent: CFString = "m_EmailAddressIfPresent"
public nonisolated(unsafe) let kSecMatchSubjectContains: CFString = "m_SubjectContains"
public nonisolated(unsafe) let kSecMatchCaseInsensitive: CFString = "m_CaseInsensitive"
public nonisolated(unsafe) let kSecMatchTrustedOnly: CFString = "m_TrustedOnly"
public nonisolated(unsafe) let kSecMatchValidOnDate: CFString = "m_ValidOnDate"

// MARK: Use keys

public nonisolated(unsafe) let kSecUseDataProtectionKeychain: CFString = "nleg"
public nonisolated(unsafe) let kSecUseAuthenticationContext: CFString = "u_AuthCtx"
public nonisolated(unsafe) let kSecUseAuthenticationUI: CFString = "u_AuthUI"
public nonisolated(unsafe) let kSecUseAuthenticationUIAllow: CFString = "u_AuthUIA"
public nonisolated(unsafe) let kSecUseAuthenticationUIFail: CFString = "u_AuthUIF"
public nonisolated(unsafe) let kSecUseAuthenticationUISkip: CFString = "u_AuthUIS"
public nonisolated(unsafe) let kSecUseOperationPrompt: CFString = "u_OpPrompt"
/// Deprecated by Apple in favour of ``kSecUseAuthenticationUI``; SimSecurity shows no UI either way.
public nonisolated(unsafe) let kSecUseNoAuthenticationUI: CFString = "u_NoAuthUI"
/// Deprecated by Apple; accepted and ignored.
public nonisolated(unsafe) let kSecUseItemList: CFString = "u_ItemList"

// MARK: Tokens and key generation

/// The access group of items that live on a token (smart card); SimSecurity has no tokens.
public nonisolated(unsafe) let kSecAttrAccessGroupToken: CFString = "com.apple.token"
/// The Secure Enclave's token id, for `kSecAttrTokenID`; SimSecurity has no Secure Enclave.
public nonisolated(unsafe) let kSecAttrTokenIDSecureEnclave: CFString = "com.apple.setoken"
/// Key-generation dictionaries' private- and public-key parts (`SecKeyCreateRandomKey`).
public nonisolated(unsafe) let kSecPrivateKeyAttrs: CFString = "private"
public nonisolated(unsafe) let kSecPublicKeyAttrs: CFString = "public"
/// The shared web credential's password key (`SecRequestSharedWebCredential`).
public nonisolated(unsafe) let kSecSharedPassword: CFString = "spwd"

/// Success: the same value as ``errSecSuccess``.
public let noErr: OSStatus = 0

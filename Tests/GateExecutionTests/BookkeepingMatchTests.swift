import Foundation
@testable import GateExecution
import SimSecurity
import Testing
import UpgradeContract

/// A bookkeeping keychain item declared without a service (or server, or account) is the item the keychain stores
/// with the empty one, so the runner leaves it alone where it removes data (seed-variants, marker-without-data).
@Suite struct BookkeepingMatchTests {
    /// A small app's declaration: one secret, and an install marker added with an account only.
    private static let declarations = CaseDeclarations(
        caseID: "c",
        old: BuildDeclaration(
            secrets: [
                DeclaredItem(label: "pin", store: .keychain(KeychainItemDeclaration(service: "com.example.pins", account: "pin")))
            ],
            bookkeeping: [DeclaredItem(label: "installed", store: .keychain(KeychainItemDeclaration(account: "installed")))]),
        new: nil)

    /// The items a real keychain holds after the app adds `attributes` each.
    private func stored(_ items: [[CFString: Any]]) throws -> [KeychainItemRecord] {
        let keychain = Keychain(.init())
        for attributes in items {
            var item = attributes
            item[kSecValueData] = Data("1".utf8)
            #expect(keychain.add(item as CFDictionary, nil) == errSecSuccess)
        }
        return try keychain.dump()
    }

    @Test("a bookkeeping item declared without a service is the item stored with none; another service is not it")
    func noService() throws {
        let records = try stored([
            [kSecClass: kSecClassGenericPassword, kSecAttrAccount: "installed"],
            [kSecClass: kSecClassGenericPassword, kSecAttrService: "com.example.other", kSecAttrAccount: "installed"],
            [kSecClass: kSecClassGenericPassword, kSecAttrService: "com.example.pins", kSecAttrAccount: "pin"],
        ])
        #expect(records.count == 3)
        let bookkeeping = records.filter(Self.declarations.isBookkeeping).map { $0.service ?? "(none)" }
        #expect(bookkeeping.count == 1 && bookkeeping.allSatisfy { $0 == "" || $0 == "(none)" }, "\(bookkeeping)")
    }

    @Test(
        "the empty service, server and account match their absence either way round",
        arguments: [
            (KeychainItemDeclaration(account: "a"), "genp", nil, "a", true),
            (KeychainItemDeclaration(account: "a"), "genp", "", "a", true),
            (KeychainItemDeclaration(service: "", account: "a"), "genp", nil, "a", true),
            (KeychainItemDeclaration(account: "a"), "genp", "s", "a", false),
            (KeychainItemDeclaration(itemClass: "inet", account: "a"), "inet", nil, "a", true),
            (KeychainItemDeclaration(itemClass: "inet", server: "h", account: "a"), "inet", nil, "a", false),
            (KeychainItemDeclaration(service: "s"), "genp", "s", nil, true),
        ] as [(KeychainItemDeclaration, String, String?, String?, Bool)])
    func emptyIsAbsent(key: KeychainItemDeclaration, itemClass: String, service: String?, account: String?, matches: Bool) throws
    {
        var item: [CFString: Any] = [kSecClass: itemClass == "inet" ? kSecClassInternetPassword : kSecClassGenericPassword]
        if let service { item[itemClass == "inet" ? kSecAttrServer : kSecAttrService] = service }
        if let account { item[kSecAttrAccount] = account }
        let records = try stored([item])
        try #require(records.count == 1)
        #expect(CaseDeclarations.matches(key, records[0]) == matches)
    }
}

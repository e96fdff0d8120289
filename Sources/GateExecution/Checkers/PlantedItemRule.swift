import GateModel
import UpgradeContract

/// Whether an item the runner planted before a reinstall is of what the app itself writes, the rule
/// reinstall-sweeps judges a planted survivor by: the same class, the same service and account (an
/// internet password: server, port, protocol and account), and the same access group as an item
/// either build declares (a declaration without an access group: any group) or an item the app's
/// launches wrote on the device. Whether it is synchronizable does not matter: an app's sweep
/// scoped without `kSecAttrSynchronizableAny` misses the synchronizable copy of its own item.
struct PlantedItemRule {
    /// Each keychain item either build declares, with its label and the build that declares it.
    private let declared: [(label: String, build: String, key: KeychainItemDeclaration)]
    private let written: [DeviceSnapshot.Item]

    init(declarations: CaseDeclarations, written: [DeviceSnapshot.Item]) {
        var declared: [(String, String, KeychainItemDeclaration)] = []
        for (build, declaration) in [("the new build", declarations.new), ("the old build", declarations.old)] {
            for item in declaration.secrets + declaration.bookkeeping {
                if case .keychain(let key) = item.store { declared.append((item.label, build, key)) }
            }
        }
        self.declared = declared
        self.written = written
    }

    /// Why `item` is of what the app writes (the declared item or the written one it is), or nil.
    func ownership(of item: DeviceSnapshot.Item) -> String? {
        if let match = declared.first(where: { Self.matches($0.key, item) }) {
            return "the item \(match.label) \(match.build) declares"
        }
        if written.contains(where: { Self.sameItem($0, item) }) {
            return "an item the app's launches wrote on the device"
        }
        return nil
    }

    /// `item`'s class and primary key as a finding names them.
    static func identity(_ item: DeviceSnapshot.Item) -> String {
        var parts = ["\(item.itemClass)"]
        switch item.itemClass {
        case "inet":
            parts.append("server \(item.service.isEmpty ? "(none)" : item.service)")
            if let port = item.port { parts.append("port \(port)") }
            if let code = item.protocolCode { parts.append("protocol \(code)") }
        case "genp":
            parts.append("service \(item.service.isEmpty ? "(none)" : item.service)")
        default: break
        }
        if item.itemClass == "genp" || item.itemClass == "inet" {
            parts.append("account \(item.account.isEmpty ? "(none)" : item.account)")
        }
        return parts.joined(separator: " ") + " in \(item.accessGroup)"
    }

    /// Whether `item` is the declared `key`; an attribute the declaration leaves out is the empty one
    /// (or, for a port or protocol, the keychain's default), as the keychain stores it.
    static func matches(_ key: KeychainItemDeclaration, _ item: DeviceSnapshot.Item) -> Bool {
        guard key.itemClass == item.itemClass, key.account == item.account else { return false }
        if let group = key.accessGroup, group != item.accessGroup { return false }
        switch item.itemClass {
        case "inet":
            return (key.server ?? "") == item.service && key.port.map(String.init) == item.port
                && DeviceSnapshot.Item.present(key.protocol) == item.protocolCode
        case "genp": return (key.service ?? "") == item.service
        default: return true
        }
    }

    /// Whether `a` and `b` are the same item but for being synchronizable.
    static func sameItem(_ a: DeviceSnapshot.Item, _ b: DeviceSnapshot.Item) -> Bool {
        a.itemClass == b.itemClass && a.accessGroup == b.accessGroup && a.service == b.service && a.account == b.account
            && a.port == b.port && a.protocolCode == b.protocolCode
    }
}

import Foundation

/// A store operation that passes through the ``Seam``.
public enum StoreOperation: String, Codable, Sendable, CaseIterable, Comparable {
    case secItemAdd = "SecItemAdd"
    case secItemCopyMatching = "SecItemCopyMatching"
    case secItemUpdate = "SecItemUpdate"
    case secItemDelete = "SecItemDelete"
    case preferencesWrite = "preferences.write"
    case fileWrite = "file.write"
    case fileRemove = "file.remove"
    // The app's own file-changing system calls, through any API (``FileSupervision``); a fault's
    // status is an errno.
    case fsOpen = "fs.open"
    case fsWrite = "fs.write"
    case fsRename = "fs.rename"
    case fsUnlink = "fs.unlink"
    case fsMkdir = "fs.mkdir"
    case fsRmdir = "fs.rmdir"
    case fsTruncate = "fs.truncate"
    case fsSync = "fs.sync"
    case fsLink = "fs.link"
    /// What a planned power loss took from the launch (``FaultPlan/powerLoss``): one entry per
    /// preference key whose set was lost and per file whose unsynced data was lost. Never a call,
    /// never a mutation.
    case powerLoss = "power.loss"

    /// Whether a successful call changes the store (and so counts as a mutation).
    public var isMutating: Bool { self != .secItemCopyMatching && self != .powerLoss }

    /// Whether the operation is a keychain call.
    public var isKeychain: Bool { rawValue.hasPrefix("SecItem") }

    /// Whether the operation is one of the app's own file system calls (``FileSupervision``).
    public var isFileSystemCall: Bool { rawValue.hasPrefix("fs.") }

    public static func < (lhs: StoreOperation, rhs: StoreOperation) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a fault does to the call it hits.
public enum FaultAction: Hashable, Sendable, Codable {
    /// The call answers this OSStatus and leaves the store untouched.
    case status(Int32)
    /// The call answers success and stores nothing (a lost write).
    case dropWrite

    private enum CodingKeys: String, CodingKey { case kind, status }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "status": self = .status(try container.decode(Int32.self, forKey: .status))
        case "dropWrite": self = .dropWrite
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container,
                debugDescription: "unknown fault kind \"\(other)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .status(let status):
            try container.encode("status", forKey: .kind)
            try container.encode(status, forKey: .status)
        case .dropWrite:
            try container.encode("dropWrite", forKey: .kind)
        }
    }
}

/// One injected fault: the `call`-th call (counting from 1) of `operation` does `action`.
public struct Fault: Hashable, Sendable, Codable {
    public var operation: StoreOperation
    public var call: Int
    public var action: FaultAction

    public init(_ operation: StoreOperation, call: Int, _ action: FaultAction) {
        self.operation = operation
        self.call = call
        self.action = action
    }
}

/// What the seam does to a launch: faults on given calls, and an optional crash point.
public struct FaultPlan: Hashable, Sendable, Codable {
    public var faults: [Fault]
    /// End the process (SIGKILL) right after the k-th mutation commits, counting from 1.
    public var crashAfterMutation: Int?
    /// Whether the planned crash is a device power loss: before the process ends, the device loses
    /// what iOS can lose then (docs/file-supervision.md, "Power loss"): every preference set of the
    /// launch, and each file's data written since its last fsync or fdatasync. Keychain commits stay.
    public var powerLoss: Bool

    public init(faults: [Fault] = [], crashAfterMutation: Int? = nil, powerLoss: Bool = false) {
        self.faults = faults
        self.crashAfterMutation = crashAfterMutation
        self.powerLoss = powerLoss
    }

    /// A power loss right after the k-th mutation commits.
    public static func powerLoss(afterMutation k: Int) -> FaultPlan { FaultPlan(crashAfterMutation: k, powerLoss: true) }

    private enum CodingKeys: String, CodingKey { case faults, crashAfterMutation, powerLoss }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        faults = try container.decode([Fault].self, forKey: .faults)
        crashAfterMutation = try container.decodeIfPresent(Int.self, forKey: .crashAfterMutation)
        powerLoss = try container.decodeIfPresent(Bool.self, forKey: .powerLoss) ?? false
    }

    /// `powerLoss` is written only when set, so that a plan without one keeps the bytes it had
    /// before power losses existed (run.json, launch contexts).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(faults, forKey: .faults)
        try container.encodeIfPresent(crashAfterMutation, forKey: .crashAfterMutation)
        if powerLoss { try container.encode(true, forKey: .powerLoss) }
    }

    /// A plan that changes nothing.
    public static let none = FaultPlan()

    public var isEmpty: Bool { faults.isEmpty && crashAfterMutation == nil }
}

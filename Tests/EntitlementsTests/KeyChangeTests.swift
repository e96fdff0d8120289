import Entitlements
import Testing

@Suite struct KeyChangeTests {
    @Test("keys added, removed and changed are reported in key order")
    func kinds() {
        let old = Entitlements(["a": .string("1"), "b": .bool(true), "c": .integer(1)])
        let new = Entitlements(["a": .string("2"), "c": .integer(1), "d": .string("x")])
        let changes = KeyChange.changes(from: old, to: new)
        #expect(changes.map(\.key) == ["a", "b", "d"])
        #expect(changes.map(\.kind) == [.changed, .removed, .added])
        #expect(changes[0].old == .string("1") && changes[0].new == .string("2"))
    }

    @Test(
        "arrays are compared element by element, with order changes called out",
        arguments: [
            (["x", "y"], ["x", "y", "z"], ["z"], [], false),
            (["x", "y", "z"], ["x", "z"], [], ["y"], false),
            (["x", "y"], ["y", "x"], [], [], true),
            (["x", "y", "z"], ["z", "w", "x"], ["w"], ["y"], true),
        ])
    func arrays(old: [String], new: [String], added: [String], removed: [String], reordered: Bool) throws {
        let key = "keychain-access-groups"
        let changes = KeyChange.changes(
            from: Entitlements([key: .array(old.map(PlistValue.string))]),
            to: Entitlements([key: .array(new.map(PlistValue.string))]))
        let change = try #require(changes.first)
        #expect(changes.count == 1)
        #expect(change.elementsAdded == added.map(PlistValue.string))
        #expect(change.elementsRemoved == removed.map(PlistValue.string))
        #expect(change.orderChanged == reordered)
    }

    @Test("equal entitlements have no changes")
    func none() throws {
        #expect(KeyChange.changes(from: try FixtureFiles.ledger(), to: try FixtureFiles.ledger()).isEmpty)
    }
}

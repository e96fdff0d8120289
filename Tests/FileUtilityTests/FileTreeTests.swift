import Foundation
import FileUtility
import TestSupport
import Testing

@Suite struct FileTreeTests {
    @Test("depth first, each folder's entries in name order whatever order they were made in; pruned folders listed, not entered")
    func walk() throws {
        let directory = try TemporaryDirectory("file-tree")
        let root = directory.path
        // Made out of name order, so that the file system's own order is not the answer by chance.
        for folder in ["b", "a/z", "a/y", "logs/old", "tmp"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        for file in ["b/2", "b/1", "a/z/f", "a/y/f", "a/x", "logs/old/l", "tmp/t", "c"] {
            try Data(file.utf8).write(to: URL(fileURLWithPath: root + "/" + file))
        }
        symlink("c", root + "/d")
        let entries = FileTree.entries(under: root, pruning: ["logs", "tmp"])
        #expect(
            entries.map(\.relative) == ["a", "a/x", "a/y", "a/y/f", "a/z", "a/z/f", "b", "b/1", "b/2", "c", "d", "logs", "tmp"])
        #expect(entries.first { $0.relative == "d" }?.kind == .symbolicLink)
        #expect(entries.first { $0.relative == "a/y" }?.kind == .directory)
        #expect(FileTree.files(under: root) == ["a/x", "a/y/f", "a/z/f", "b/1", "b/2", "c", "logs/old/l", "tmp/t"])
        #expect(FileTree.entries(under: root + "/missing").isEmpty)
    }

    @Test("names are ordered by their bytes: upper case before lower, composed and decomposed accents apart")
    func byteOrder() throws {
        let directory = try TemporaryDirectory("file-tree-bytes")
        // "é" composed (C3 A9) and "e" + combining acute (65 CC 81) are equal as Swift strings.
        for name in ["b", "\u{E9}", "B", "e\u{301}", "a"] {
            try Data(name.utf8).write(to: URL(fileURLWithPath: directory.path + "/" + name))
        }
        #expect(
            FileTree.files(under: directory.path).map { Array($0.utf8) } == [
                Array("B".utf8), Array("a".utf8), Array("b".utf8), [0x65, 0xCC, 0x81], [0xC3, 0xA9],
            ])
    }
}

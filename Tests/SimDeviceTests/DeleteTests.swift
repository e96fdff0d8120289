import Foundation
import SimDevice
import Testing

@Suite("Deleting a device")
struct DeleteTests {
    @Test("delete removes the device's whole folder, nested folders and links, and nothing a link points at")
    func deleteRemovesTheTree() throws {
        let fixture = try Fixture("delete")
        let session = try fixture.bootedWithTinyApp()
        let folder = session.device.layout.directory
        let outside = fixture.directory.file("outside")
        try FileManager.default.createDirectory(atPath: outside + "/inner", withIntermediateDirectories: true)
        try Data("kept".utf8).write(to: URL(fileURLWithPath: outside + "/inner/file"))
        let nested = folder + "/data/extra/a/b/c"
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: nested + "/file"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/data/extra/to-outside", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: folder + "/data/extra/dangling", withDestinationPath: "/no/such/path")

        try session.delete()
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(try String(contentsOfFile: outside + "/inner/file", encoding: .utf8) == "kept")
        #expect(fixture.set.list().devices.isEmpty)
    }
}

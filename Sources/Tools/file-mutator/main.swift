// A launched app that changes files the way iOS code does (Foundation, no harness API), for the
// file supervisor's tests: starts the supervisor from its launch context, runs each step and
// prints one line per step, `ok` or the error's errno (negated: a Cocoa error's code, when it has no errno).
// Usage: file-mutator STEP... where a STEP is one argument:
//   write:REL=TEXT      Data.write (not atomic) into the data container
//   atomic:REL=TEXT     Data.write(options: .atomic)
//   mkdir:REL           FileManager.createDirectory(withIntermediateDirectories: true)
//   remove:REL          FileManager.removeItem
//   move:REL=REL2       FileManager.moveItem
//   copy:REL=REL2       FileManager.copyItem
//   outside:ABS=TEXT    Data.write to an absolute path
//   null                writes to /dev/null (never reported)
//   bare:REL=TEXT       open(O_CREAT|O_TRUNC) and write(2), no fsync (what a power loss can take)
//   append:REL=TEXT     open(O_APPEND) and write(2), no fsync
//   fsync:REL           open for writing and fsync(2)
//   read:REL            Data(contentsOf:), printed as `ok TEXT`
import Foundation
import SimRuntime
import SimSupervision

guard let context = LaunchContext.current else {
    FileHandle.standardError.write(Data("file-mutator: no launch context\n".utf8))
    exit(2)
}
do {
    try FileSupervision.start(context, seam: .process)
} catch {
    FileHandle.standardError.write(Data("file-mutator: \(error)\n".utf8))
    exit(3)
}
let home = URL(fileURLWithPath: context.dataContainer, isDirectory: true)

func errnoOf(_ error: Error) -> Int {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return underlying.code
    }
    return ns.domain == NSPOSIXErrorDomain ? ns.code : -ns.code
}

for step in CommandLine.arguments.dropFirst() {
    let (verb, rest) =
        step.firstIndex(of: ":").map { (String(step[..<$0]), String(step[step.index(after: $0)...])) } ?? (step, "")
    let parts = rest.split(separator: "=", maxSplits: 1).map(String.init)
    let first = parts.first ?? ""
    let second = parts.count > 1 ? parts[1] : ""
    do {
        switch verb {
        case "write": try Data(second.utf8).write(to: home.appendingPathComponent(first))
        case "atomic": try Data(second.utf8).write(to: home.appendingPathComponent(first), options: .atomic)
        case "mkdir":
            try FileManager.default.createDirectory(at: home.appendingPathComponent(first), withIntermediateDirectories: true)
        case "remove": try FileManager.default.removeItem(at: home.appendingPathComponent(first))
        case "move":
            try FileManager.default.moveItem(at: home.appendingPathComponent(first), to: home.appendingPathComponent(second))
        case "copy":
            try FileManager.default.copyItem(at: home.appendingPathComponent(first), to: home.appendingPathComponent(second))
        case "outside": try Data(second.utf8).write(to: URL(fileURLWithPath: first))
        case "null": try Data("x".utf8).write(to: URL(fileURLWithPath: "/dev/null"))
        case "bare", "append", "fsync":
            let flags = verb == "bare" ? O_CREAT | O_TRUNC : verb == "append" ? O_CREAT | O_APPEND : 0
            let fd = open(home.appendingPathComponent(first).path, O_WRONLY | O_CLOEXEC | flags, 0o644)
            guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            defer { close(fd) }
            let done = verb == "fsync" ? fsync(fd) : second.withCString { write(fd, $0, strlen($0)) < 0 ? -1 : 0 }
            guard done == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        case "read":
            print("ok " + String(decoding: try Data(contentsOf: home.appendingPathComponent(first)), as: UTF8.self))
            continue
        default:
            FileHandle.standardError.write(Data("file-mutator: unknown step \(step)\n".utf8))
            exit(2)
        }
        print("ok")
    } catch {
        print("error \(errnoOf(error))")
    }
}

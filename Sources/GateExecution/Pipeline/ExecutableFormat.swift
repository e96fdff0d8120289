import Foundation
import GateModel
import SimDevice
import UpgradeContract

/// What an app build's executable is, read from its first bytes before anything runs it (issue
/// 29): preflight launches only an ELF executable for this machine's architecture, statically or
/// dynamically linked. A folder, a script (`#!`), a Mach-O (an Apple platform's build) or a corrupt
/// file is refused naming the build and the path the user gave, never a temporary copy's. `install`
/// checks it too, before it touches the device.
package enum ExecutableFormat {
    /// Refuses `build` when its executable is not one this machine runs (`format`'s answer),
    /// naming its build.json, the build and the executable's path.
    /// - Throws: ``GateError/malformed(path:reason:)`` (exit 2).
    package static func check(_ build: Build, format: (String) -> String? = problem(at:)) throws(GateError) {
        if let reason = format(build.executablePath) {
            throw GateError.malformed(
                path: build.folder + "/" + BuildManifest.fileName,
                reason: "build \(build.manifest.id)'s executable \(build.executablePath) \(reason)")
        }
        // Each app extension's executable is launched too (preflight, extension-first, interleavings).
        for item in build.extensions where item.executablePath != build.executablePath {
            if let reason = format(item.executablePath) {
                throw GateError.malformed(
                    path: build.folder + "/" + BuildManifest.fileName,
                    reason: "build \(build.manifest.id): extension \(item.name)'s executable \(item.executablePath) \(reason)")
            }
        }
    }

    /// `e_machine` of this machine: EM_X86_64 or EM_AARCH64.
    static var hostMachine: UInt16 {
        #if arch(x86_64)
            62
        #elseif arch(arm64)
            183
        #else
            0
        #endif
    }

    /// Why the file at `path` is not an executable this machine runs, or nil.
    static func problem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "cannot be read (\(String(cString: strerror(errno))))" }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return "is a folder, not an executable"
        case S_IFREG: break
        default: return "is not a regular file"
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return "cannot be read (\(String(cString: strerror(errno))))" }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 64)
        let count = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return problem(header: Array(header.prefix(max(0, count))))
    }

    /// Why `header`, a file's first (up to) 64 bytes, is not an ELF executable for this machine.
    static func problem(header: [UInt8]) -> String? {
        if header.starts(with: [0x23, 0x21]) { return "is a script (#!), not an app build's executable" }
        let magic =
            header.count >= 4 ? UInt32(header[0]) << 24 | UInt32(header[1]) << 16 | UInt32(header[2]) << 8 | UInt32(header[3]) : 0
        if [0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE, 0xCAFE_BABE, 0xBEBA_FECA].contains(magic) {
            return "is a Mach-O file (built for an Apple platform), not an executable for this machine"
        }
        guard header.count >= 20, header.starts(with: [0x7F, 0x45, 0x4C, 0x46]) else {
            return "is not an executable this machine runs (no ELF header: a corrupt or foreign file)"
        }
        // ELFCLASS64, little-endian: the runner's own platforms.
        guard header[4] == 2, header[5] == 1 else { return "is an ELF file for another machine (not 64-bit little-endian)" }
        let type = UInt16(header[16]) | UInt16(header[17]) << 8
        guard type == 2 || type == 3 else { return "is an ELF file that is not an executable (type \(type))" }
        let machine = UInt16(header[18]) | UInt16(header[19]) << 8
        guard machine == hostMachine else { return "is an ELF executable for another architecture (machine \(machine))" }
        return nil
    }
}

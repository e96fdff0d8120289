import CFileSupervisor
import Foundation
import SimRuntime
import Testing

/// SimRuntime moves the runner's own descriptors (the mutation log, the step channel) above the range the
/// C supervisor traps without linking the supervisor; the two floors are one number.
@Suite struct ReservedDescriptorTests {
    @Test("SimRuntime's reserved floor is CFileSupervisor's, and a reserved descriptor lands at or above it")
    func floorsAgree() throws {
        #expect(ProcessSupervisor.reservedDescriptorFloor == CFS_RESERVED_FD_FLOOR)
        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        let reserved = ProcessSupervisor.reserve(descriptor)
        defer { close(reserved) }
        #expect(reserved >= CFS_RESERVED_FD_FLOOR)
        #expect(fcntl(descriptor, F_GETFD) == -1, "the original is closed")
    }
}

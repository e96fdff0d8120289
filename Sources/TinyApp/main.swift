import SimDevice

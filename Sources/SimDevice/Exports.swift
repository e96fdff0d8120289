// The host side of a simulated device shows its app side too: the runner and the tests that hold a
// `Device` also read its apps' preferences and protected files through the same types.
@_exported import SimPlatform

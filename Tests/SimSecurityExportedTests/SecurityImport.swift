// The one file a module adds to see the Security API from every file, as iOS code sees it through
// `import Foundation`: the same line on Apple platforms (the framework) and on Linux (the
// package's `Security` module, SimSecurity re-exported).
@_exported import Security

// `import Security` on Linux, as on iOS: the Security framework's API is SimSecurity's.
//
// A module whose files only `import Foundation` (which brings Security on iOS) adds one file with
// `@_exported import Security`, the same line on both platforms.
@_exported import SimSecurity

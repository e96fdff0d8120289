// The one file a module adds to see SimSecurity from every file, as iOS code sees the Security
// framework through `import Foundation`: on Apple platforms it is empty.
#if !canImport(Security)
    @_exported import SimSecurity
#endif

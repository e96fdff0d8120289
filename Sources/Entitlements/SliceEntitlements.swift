/// Which entitlements a Mach-O file carries, slice by slice, and what to say when its slices or a slice's two
/// copies (section and signature) disagree.
extension MachOFile {
    /// Keys an ad hoc signature adds on its own: recent simulator builds' signatures hold
    /// `com.apple.security.get-task-allow`, older ones `get-task-allow`, and nothing else.
    static let adHocSignatureKeys: Set<String> = ["get-task-allow", "com.apple.security.get-task-allow"]

    /// One slice's entitlements and where they came from.
    struct SliceReading {
        let slice: MachOSlice
        let entitlements: Entitlements
        /// `arm64 __TEXT,__entitlements`, `armv7 code signature` or `i386: none`.
        let origin: String
    }

    /// The entitlements this file carries: each slice's section first, then its signature blob. When slices
    /// disagree the first 64-bit slice's are used (what current devices and simulators run; the first slice's when
    /// every slice is 32-bit), with one warning that says, key by key, which slice holds what.
    /// - Throws: a slice's plist that does not read, a mistyped keychain key, or a dSYM companion (no entitlements
    ///   in it, only the header of the executable's section), each naming the slice.
    public func entitlements(
        file: String
    ) throws(EntitlementsError) -> (entitlements: Entitlements, origin: String, warnings: [String]) {
        var readings: [SliceReading] = []
        var warnings: [String] = []
        for slice in slices {
            let (reading, warning) = try Self.reading(slice, file: file)
            readings.append(reading)
            if let warning { warnings.append(warning) }
        }
        guard let used = readings.first(where: \.slice.is64Bit) ?? readings.first else {
            throw EntitlementsError(file, "no architectures")
        }
        let others = readings.filter { $0.entitlements != used.entitlements }
        if !others.isEmpty {
            warnings.append(Self.disagreement(used: used, others: others, file: file))
        }
        if readings.allSatisfy({ $0.entitlements.values.isEmpty }) {
            warnings.append(
                "\(file): no entitlements in a __TEXT,__entitlements section or a code signature; "
                    + "its keychain calls would answer errSecMissingEntitlement (-34018)")
        }
        return (used.entitlements, readings.map(\.origin).joined(separator: ", "), warnings)
    }

    /// One slice read, and a warning when its signature holds other entitlements than its section.
    static func reading(_ slice: MachOSlice, file: String) throws(EntitlementsError) -> (SliceReading, String?) {
        let name = slice.architecture
        if slice.isDebugCompanion, slice.sectionPlist == nil, slice.signaturePlist == nil {
            throw EntitlementsError(
                file,
                "\(name) is a dSYM companion (MH_DSYM): it keeps the executable's section headers"
                    + (slice.sectionWithoutContents ? " (__TEXT,__entitlements at file offset 0)" : "")
                    + " but not their contents; read the app's executable instead")
        }
        let sectionPlace = "\(name) __TEXT,__entitlements"
        let signaturePlace = "\(name) code signature"
        let section = try slice.sectionPlist.map { (bytes) throws(EntitlementsError) in
            try Entitlements(checking: try plist(bytes, file: file, place: sectionPlace), file: file, place: sectionPlace)
        }
        let signature = try slice.signaturePlist.map { (bytes) throws(EntitlementsError) in
            try Entitlements(checking: try plist(bytes, file: file, place: signaturePlace), file: file, place: signaturePlace)
        }
        var warning: String?
        if let section, let signature {
            let signed = signature.values.filter { !adHocSignatureKeys.contains($0.key) }
            let built = section.values.filter { !adHocSignatureKeys.contains($0.key) }
            if !signed.isEmpty, signed != built {
                warning =
                    "\(file): \(name) code signature entitlements differ from its __TEXT,__entitlements "
                    + "section; the section is used"
            }
        }
        let reading =
            if let section {
                SliceReading(slice: slice, entitlements: section, origin: sectionPlace)
            } else if let signature {
                SliceReading(slice: slice, entitlements: signature, origin: signaturePlace)
            } else {
                SliceReading(slice: slice, entitlements: Entitlements([:]), origin: "\(name): none")
            }
        return (reading, warning)
    }

    /// `fat: slices disagree; arm64's entitlements are used: keychain-access-groups is ["A"] in arm64, ["B"] in
    /// armv7; aps-environment is "production" in arm64, absent in armv7; i386 has none`.
    static func disagreement(used: SliceReading, others: [SliceReading], file: String) -> String {
        let empty = others.filter { $0.entitlements.values.isEmpty }
        let all = [used] + others.filter { !$0.entitlements.values.isEmpty }
        var phrases: [String] = []
        for key in Set(all.flatMap(\.entitlements.values.keys)).sorted() {
            let values = all.map { $0.entitlements.values[key] }
            guard Set(values).count > 1 else { continue }
            let holders = zip(all, values).compactMap { reading, value in
                value.map { "\($0.rendered) in \(reading.slice.architecture)" }
            }
            let lacking = zip(all, values).filter { $0.1 == nil }.map(\.0.slice.architecture)
            phrases.append(
                "\(key) is " + holders.joined(separator: ", ")
                    + (lacking.isEmpty ? "" : ", absent in " + lacking.joined(separator: ", ")))
        }
        phrases += empty.map { "\($0.slice.architecture) has none" }
        return "\(file): slices disagree; \(used.slice.architecture)'s entitlements are used: "
            + phrases.joined(separator: "; ")
    }
}

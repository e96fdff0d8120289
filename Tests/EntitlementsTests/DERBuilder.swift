/// A small DER encoder for building CMS envelopes in tests: definite lengths, plus BER's constructed and
/// indefinite-length forms that some signers write.
enum DERBuilder {
    static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        var bytes: [UInt8] = []
        var rest = count
        while rest > 0 {
            bytes.insert(UInt8(rest & 0xff), at: 0)
            rest >>= 8
        }
        return [0x80 | UInt8(bytes.count)] + bytes
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag] + length(content.count) + content }
    static func indefinite(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { [tag, 0x80] + content + [0, 0] }
    static func sequence(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }
    static func oid(_ bytes: [UInt8]) -> [UInt8] { tlv(0x06, bytes) }

    static let signedData: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02]
    static let data: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01]
    static let sha256: [UInt8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]

    /// ContentInfo { signedData, [0] SignedData { 1, {sha256}, { data, [0] eContent }, {} } } with no signers.
    /// - Parameters:
    ///   - eContent: the encoded OCTET STRING (primitive or constructed), or nil for a detached signature.
    ///   - outerType: the ContentInfo's content type.
    static func envelope(eContent: [UInt8]?, outerType: [UInt8] = signedData, innerType: [UInt8] = data) -> [UInt8] {
        let encapsulated = sequence(oid(innerType), eContent.map { tlv(0xa0, $0) } ?? [])
        let signed = sequence(tlv(0x02, [1]), tlv(0x31, sequence(oid(sha256))), encapsulated, tlv(0x31, []))
        return sequence(oid(outerType), tlv(0xa0, signed))
    }

    static func octetString(_ bytes: [UInt8]) -> [UInt8] { tlv(0x04, bytes) }

    /// An OCTET STRING split into chunks of `size` inside a constructed, indefinite-length OCTET STRING.
    static func chunkedOctetString(_ bytes: [UInt8], size: Int) -> [UInt8] {
        var chunks: [UInt8] = []
        var start = 0
        while start < bytes.count {
            chunks += octetString(Array(bytes[start..<min(start + size, bytes.count)]))
            start += size
        }
        return indefinite(0x24, chunks)
    }
}

/// A minimal reader of DER (and BER's indefinite lengths) that walks TLV structure; enough for a CMS envelope.
struct DERReader {
    /// One tag-length-value element: its tag byte and where its content lies in the buffer.
    struct Node {
        let tag: UInt8
        let offset: Int
        let contentStart: Int
        let contentEnd: Int
        /// Where the next element starts (after an end-of-contents marker for indefinite lengths).
        let end: Int

        var isConstructed: Bool { tag & 0x20 != 0 }
    }

    let reader: ByteReader

    init(_ bytes: [UInt8], file: String) {
        reader = ByteReader(bytes, file: file)
    }

    func fail(_ offset: Int, _ problem: String) -> EntitlementsError {
        EntitlementsError(reader.file, "DER at offset \(String.hex(offset)): \(problem)")
    }

    /// The element starting at `offset`, which must end by `limit`.
    func node(at offset: Int, limit: Int, depth: Int = 0) throws(EntitlementsError) -> Node {
        guard depth < 32 else { throw fail(offset, "nested more than 32 levels deep") }
        guard offset < limit, offset < reader.count else { throw fail(offset, "truncated: expected an element") }
        let tag = reader.bytes[offset]
        guard tag & 0x1f != 0x1f else { throw fail(offset, "multi-byte tags are not supported") }
        guard offset + 1 < limit else { throw fail(offset, "truncated: no length after tag \(String.hex(tag))") }
        let first = reader.bytes[offset + 1]
        var cursor = offset + 2
        if first == 0x80 {
            guard tag & 0x20 != 0 else { throw fail(offset, "indefinite length on a primitive element") }
            var child = cursor
            while true {
                guard child + 1 < limit else { throw fail(offset, "truncated: no end-of-contents marker") }
                if reader.bytes[child] == 0, reader.bytes[child + 1] == 0 {
                    return Node(tag: tag, offset: offset, contentStart: cursor, contentEnd: child, end: child + 2)
                }
                child = try node(at: child, limit: limit, depth: depth + 1).end
            }
        }
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else {
            let count = Int(first & 0x7f)
            guard count <= 4 else { throw fail(offset, "length of \(count) bytes is too large") }
            for _ in 0..<count {
                guard cursor < limit else { throw fail(offset, "truncated: length bytes missing") }
                length = length << 8 | Int(reader.bytes[cursor])
                cursor += 1
            }
        }
        guard length <= limit - cursor else {
            throw fail(offset, "truncated: element of \(length) bytes, only \(max(0, limit - cursor)) remain")
        }
        return Node(tag: tag, offset: offset, contentStart: cursor, contentEnd: cursor + length, end: cursor + length)
    }

    /// The elements inside a constructed element.
    func children(of parent: Node, depth: Int = 0) throws(EntitlementsError) -> [Node] {
        guard parent.isConstructed else {
            throw fail(parent.offset, "expected a constructed element, found tag \(String.hex(parent.tag))")
        }
        var nodes: [Node] = []
        var cursor = parent.contentStart
        while cursor < parent.contentEnd {
            let child = try node(at: cursor, limit: parent.contentEnd, depth: depth + 1)
            nodes.append(child)
            cursor = child.end
        }
        return nodes
    }

    /// The content bytes of a primitive element.
    func content(of node: Node) -> [UInt8] {
        Array(reader.bytes[node.contentStart..<node.contentEnd])
    }

    /// The bytes of an OCTET STRING, primitive or constructed from nested OCTET STRING chunks (BER).
    func octets(of node: Node, depth: Int = 0) throws(EntitlementsError) -> [UInt8] {
        switch node.tag {
        case 0x04: return content(of: node)
        case 0x24:
            guard depth < 8 else { throw fail(node.offset, "OCTET STRING chunks nested too deep") }
            var bytes: [UInt8] = []
            for chunk in try children(of: node) { bytes += try octets(of: chunk, depth: depth + 1) }
            return bytes
        default:
            throw fail(node.offset, "expected an OCTET STRING, found tag \(String.hex(node.tag))")
        }
    }

    /// Dotted text of an OBJECT IDENTIFIER's content, such as `1.2.840.113549.1.7.2`.
    static func objectIdentifier(_ content: [UInt8]) -> String {
        guard let first = content.first else { return "" }
        var parts = [String(min(Int(first) / 40, 2)), String(Int(first) - min(Int(first) / 40, 2) * 40)]
        var value: UInt64 = 0
        for byte in content.dropFirst() {
            value = (value << 7) | UInt64(byte & 0x7f)
            if byte & 0x80 == 0 {
                parts.append(String(value))
                value = 0
            }
            if value > UInt64(UInt32.max) { break }
        }
        return parts.joined(separator: ".")
    }
}

import Foundation

/// The first key that appears twice in one JSON object of a document. Readers disagree about such a
/// document (Foundation keeps the first, jq and Python the last), so an input that holds one means
/// two things at once: the runner refuses it as bad input instead of picking one.
///
/// A small iterative scanner over the bytes, independent of `JSONSerialization` (which drops the
/// duplicate silently); no recursion, so nesting depth costs no stack. Keys are compared after their
/// escapes are decoded (`"a"` and `"\u0061"` are one key). Meant for a document that already decoded:
/// on malformed bytes it answers nil and the decoder's own message stands.
public enum DuplicateKeys {
    /// The duplicated key as a field path (`keeps.secrets[0].label`), or nil when there is none.
    public static func first(in data: Data) -> String? {
        let bytes = [UInt8](data)
        var index = 0
        var stack: [Container] = []
        /// The path of the key just read, built from the whole stack only when it is answered, so
        /// that deep nesting costs no more than its bytes.
        func keyPath() -> String {
            var text = ""
            for container in stack {
                if container.isObject {
                    text += (text.isEmpty ? "" : ".") + container.key
                } else {
                    text += "[\(container.index)]"
                }
            }
            return text
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D, 0x3A:  // whitespace, ':'
                index += 1
            case 0x7B, 0x5B:  // '{', '['
                stack.append(Container(isObject: byte == 0x7B))
                index += 1
            case 0x7D, 0x5D:  // '}', ']'
                guard !stack.isEmpty else { return nil }
                stack.removeLast()
                index += 1
            case 0x2C:  // ','
                guard !stack.isEmpty else { return nil }
                if stack[stack.count - 1].isObject {
                    stack[stack.count - 1].expectsKey = true
                } else {
                    stack[stack.count - 1].index += 1
                }
                index += 1
            case 0x22:  // '"'
                guard let (text, end) = string(bytes, from: index) else { return nil }
                index = end
                if let top = stack.last, top.isObject, top.expectsKey {
                    stack[stack.count - 1].expectsKey = false
                    stack[stack.count - 1].key = text
                    guard stack[stack.count - 1].keys.insert(text).inserted else { return keyPath() }
                }
            default:  // a number, true, false or null: up to the next delimiter
                while index < bytes.count, ![0x2C, 0x7D, 0x5D, 0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            }
        }
        return nil
    }

    /// The one-line reason for a file holding `key` twice.
    public static func reason(_ key: String) -> String {
        "field \"\(key)\" appears more than once (JSON readers disagree on which one counts)"
    }

    private struct Container {
        var isObject: Bool
        var keys: Set<String> = []
        var key = ""
        var index = 0
        var expectsKey = true
    }

    /// The string starting at the quote at `start`, escapes decoded, and the index after its closing quote.
    private static func string(_ bytes: [UInt8], from start: Int) -> (String, Int)? {
        var index = start + 1
        var escaped = false
        while index < bytes.count, bytes[index] != 0x22 {
            if bytes[index] == 0x5C {
                escaped = true
                index += 1
            }
            index += 1
        }
        guard index < bytes.count else { return nil }
        let end = index + 1
        guard escaped else { return (String(decoding: bytes[(start + 1)..<index], as: UTF8.self), end) }
        let token = Data(bytes[start..<end])
        guard let text = try? JSONSerialization.jsonObject(with: token, options: .fragmentsAllowed) as? String else { return nil }
        return (text, end)
    }
}

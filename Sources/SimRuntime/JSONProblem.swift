import Foundation

/// One line for a JSON file that does not decode, naming the field: `field "clock" is not a
/// string`, `the file is not a JSON object at the top level`, `not valid JSON`. Never Foundation's
/// `DecodingError` dump.
public enum JSONProblem {
    /// What is wrong with the decoded data, without the file's name.
    public static func describe(_ error: any Error) -> String {
        if let error = error as? ContractError { return error.description }
        guard let error = error as? DecodingError else { return "not valid JSON" }
        func field(_ path: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            var text = ""
            for key in path + (last.map { [$0] } ?? []) {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "field \"\(field(context.codingPath, key))\" is missing"
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return "the file is not \(typeName(type)) at the top level" }
            return "field \"\(field(context.codingPath))\" is not \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "field \"\(field(context.codingPath))\" is null, expected \(typeName(type))"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "not valid JSON" }
            return "field \"\(field(context.codingPath))\": \(context.debugDescription)"
        @unknown default:
            return "not readable"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int32.Type: return "an integer"
        case is Bool.Type: return "a boolean"
        case is Double.Type: return "a number"
        case is [String: Any].Type: return "a JSON object"
        case is [Any].Type: return "a JSON array"
        default: return "a \(type)"
        }
    }
}

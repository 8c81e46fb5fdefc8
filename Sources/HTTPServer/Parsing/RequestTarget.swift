/// The origin-form request target (`/path?query`): checked, split and percent-decoded.
///
/// Only origin form is served: an absolute URI (a proxy's form), `*` and `host:port` are
/// refused with 400, since a local server is no proxy and browsers send origin form to it.
/// The raw target may hold any visible ASCII byte but `#`; each `%` must start a valid escape;
/// the decoded path must be UTF-8 without NUL and without `.` or `..` segments.
enum RequestTarget {
  /// What a target decodes to.
  struct Parsed {
    var path: String
    var query: [(name: String, value: String)]
  }

  static func parse(_ bytes: [UInt8]) throws(HTTPRequestError) -> Parsed {
    guard bytes.first == UInt8(ascii: "/") else {
      throw .badRequest(bytes.isEmpty ? "empty request target" : "the request target must be a path starting with /")
    }
    for byte in bytes where byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "#") {
      throw .badRequest("invalid byte 0x\(String(byte, radix: 16)) in the request target")
    }
    let questionMark = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
    let rawPath = bytes[..<questionMark]
    guard let pathBytes = percentDecode(rawPath, plusIsSpace: false), let path = String(validating: pathBytes, as: UTF8.self)
    else { throw .badRequest("invalid percent-encoding or UTF-8 in the path") }
    if pathBytes.contains(0) { throw .badRequest("NUL in the path") }
    for segment in pathBytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    where segment.elementsEqual([UInt8(ascii: ".")]) || segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
      throw .badRequest("a . or .. segment in the path")
    }
    var query: [(name: String, value: String)] = []
    if questionMark < bytes.endIndex {
      for pair in bytes[(questionMark + 1)...].split(separator: UInt8(ascii: "&")) {
        let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
        let valueStart = equals < pair.endIndex ? equals + 1 : pair.endIndex
        guard let name = decodeText(pair[..<equals]), let value = decodeText(pair[valueStart...]) else {
          throw .badRequest("invalid percent-encoding or UTF-8 in the query")
        }
        query.append((name: name, value: value))
      }
    }
    return Parsed(path: path, query: query)
  }

  /// A query component decoded to text (`+` is a space), or nil.
  private static func decodeText(_ bytes: ArraySlice<UInt8>) -> String? {
    guard let decoded = percentDecode(bytes, plusIsSpace: true) else { return nil }
    return String(validating: decoded, as: UTF8.self)
  }

  /// `bytes` with each `%XX` replaced by its byte, or nil when a `%` is not followed by two
  /// hexadecimal digits.
  static func percentDecode(_ bytes: ArraySlice<UInt8>, plusIsSpace: Bool) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        guard bytes.endIndex - index >= 3, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
        else { return nil }
        output.append(high << 4 | low)
        index += 3
      } else {
        output.append(plusIsSpace && byte == UInt8(ascii: "+") ? 0x20 : byte)
        index += 1
      }
    }
    return output
  }

  /// The value of a hexadecimal digit, or nil.
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}

/// Header fields in the order received, looked up by name without regard to ASCII case.
///
/// ```swift
/// let headers: HTTPHeaders = ["Host": "127.0.0.1:8080", "Content-Type": "application/json"]
/// headers["content-type"]   // "application/json"
/// ```
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
  /// The fields, names as sent.
  public private(set) var fields: [(name: String, value: String)]

  /// Headers from fields in order.
  public init(_ fields: [(name: String, value: String)] = []) {
    self.fields = fields
  }

  public init(dictionaryLiteral elements: (String, String)...) {
    self.fields = elements.map { (name: $0.0, value: $0.1) }
  }

  /// The value of the field `name`; when it came more than once, the values joined with
  /// `", "` (RFC 9110's combination of a list field). Nil when absent.
  public subscript(name: String) -> String? {
    let values = self.values(for: name)
    return values.isEmpty ? nil : values.joined(separator: ", ")
  }

  /// Every value of the field `name`, in order.
  public func values(for name: String) -> [String] {
    fields.compactMap { Self.sameName($0.name, name) ? $0.value : nil }
  }

  /// Whether a field `name` is present.
  public func contains(_ name: String) -> Bool {
    fields.contains { Self.sameName($0.name, name) }
  }

  /// Adds a field (after any of the same name).
  public mutating func add(name: String, value: String) {
    fields.append((name: name, value: value))
  }

  /// Replaces every field `name` with one of `value`.
  public mutating func replace(name: String, value: String) {
    remove(name: name)
    fields.append((name: name, value: value))
  }

  /// Removes every field `name`.
  public mutating func remove(name: String) {
    fields.removeAll { Self.sameName($0.name, name) }
  }

  /// The number of fields.
  public var count: Int { fields.count }

  public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
    fields.makeIterator()
  }

  public var description: String {
    fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
  }

  /// Whether two field names are equal without regard to ASCII case.
  static func sameName(_ a: String, _ b: String) -> Bool {
    let x = a.utf8
    let y = b.utf8
    guard x.count == y.count else { return false }
    return zip(x, y).allSatisfy { asciiLower($0) == asciiLower($1) }
  }

  /// An ASCII letter in lower case; other bytes as they are.
  static func asciiLower(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
  }
}

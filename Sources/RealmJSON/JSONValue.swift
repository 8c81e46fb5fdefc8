/// A parsed JSON document that keeps what the dump format needs and Foundation loses:
/// exact 64-bit integers, `-0.0`, and the order of object members.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// A number written without fraction or exponent that fits in `Int64`.
  case int(Int64)
  /// Any other number.
  case double(Double)
  case string(String)
  case array([JSONValue])
  /// Members in document order.
  case object([JSONMember])

  /// The member called `key` of an object (the first one), nil otherwise.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }
}

/// One member of a JSON object.
public struct JSONMember: Sendable, Equatable {
  /// The key.
  public var key: String
  /// The value.
  public var value: JSONValue
  /// Creates a member.
  public init(_ key: String, _ value: JSONValue) {
    self.key = key
    self.value = value
  }
}

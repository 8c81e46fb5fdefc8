/// A property a query or an expression names and its class does not have: callers that try a
/// source against several classes, or know of renames, build their own messages from it.
public struct MissingProperty: Sendable, Hashable {
  /// The class that has no such property.
  public var className: String
  /// The name as written.
  public var name: String
  /// Creates a description.
  public init(className: String, name: String) {
    self.className = className
    self.name = name
  }
}

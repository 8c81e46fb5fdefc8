import RealmFormat

/// The formats of `realmctl schema --format`.
public enum SchemaFormat: String, Sendable, CaseIterable {
  /// For people (``SchemaTextFormatter``).
  case text
  /// The schema document of `specs/dump-format.md` (``SchemaJSON``).
  case json
  /// Realm Swift model classes (``SwiftModelFormatter``).
  case swift

  /// The output bytes for `schema`; `objectCounts` (by class name) is shown by `text` only.
  public func render(_ schema: Schema, objectCounts: [String: Int]? = nil) -> [UInt8] {
    switch self {
    case .text: return Array(SchemaTextFormatter.render(schema, objectCounts: objectCounts).utf8)
    case .json: return SchemaJSON.encode(schema)
    case .swift: return Array(SwiftModelFormatter.render(schema).utf8)
    }
  }
}

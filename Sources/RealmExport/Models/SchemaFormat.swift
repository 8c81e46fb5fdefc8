import RealmModel
import RealmJSON

/// The formats of `realmctl schema --format`.
public enum SchemaFormat: String, Sendable, CaseIterable {
  /// For people (``SchemaTextFormatter``).
  case text
  /// The schema document of `docs/dump-format.md` (`SchemaJSON` of RealmJSON).
  case json
  /// Realm Swift model classes (``SwiftModelFormatter``).
  case swift
  /// Realm Kotlin SDK model classes (``KotlinModelFormatter``).
  case kotlin
  /// Realm Java model classes (``JavaModelFormatter``).
  case java
  /// Realm JS model classes (``JavaScriptModelFormatter``).
  case javascript
  /// Realm JS model classes with TypeScript types (``JavaScriptModelFormatter``).
  case typescript
  /// Realm Flutter/Dart models (``DartModelFormatter``).
  case dart
  /// Realm .NET model classes (``CSharpModelFormatter``).
  case csharp

  /// The output bytes for `schema`; `only` limits it to one class (the models still name the
  /// other classes their links point to); `objectCounts` (by class name) is shown by `text` only.
  public func render(_ schema: Schema, only className: String? = nil, objectCounts: [String: Int]? = nil)
    -> [UInt8]
  {
    var selected = schema
    if let className { selected.classes = schema.classes.filter { $0.name == className } }
    switch self {
    case .text: return Array(SchemaTextFormatter.render(selected, objectCounts: objectCounts).utf8)
    case .json: return SchemaJSON.encode(selected)
    case .swift: return Array(SwiftModelFormatter.render(schema, only: className).utf8)
    case .kotlin: return Array(KotlinModelFormatter.render(schema, only: className).utf8)
    case .java: return Array(JavaModelFormatter.render(schema, only: className).utf8)
    case .javascript: return Array(JavaScriptModelFormatter.render(schema, only: className, typeScript: false).utf8)
    case .typescript: return Array(JavaScriptModelFormatter.render(schema, only: className, typeScript: true).utf8)
    case .dart: return Array(DartModelFormatter.render(schema, only: className).utf8)
    case .csharp: return Array(CSharpModelFormatter.render(schema, only: className).utf8)
    }
  }
}

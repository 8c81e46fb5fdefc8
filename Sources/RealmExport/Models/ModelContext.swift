import RealmModel

/// What every model formatter needs: the classes to declare, identifiers for class and
/// property names in the target language, and the links that point at each class.
struct ModelContext {
  /// The file's whole schema (link targets are named from it).
  let schema: Schema
  /// The classes to declare (all, or the one `--class` names).
  let classes: [ObjectSchema]
  /// The rules of the target language.
  let rules: IdentifierRules
  /// The identifier of every class of the file, by stored name.
  let classNames: [String: MappedName]

  /// Maps the names of `schema`; `only` limits the declarations to one class. `classNameFor`
  /// turns a mapped class identifier into the declared one (Dart's `_Name`).
  init(schema: Schema, only className: String?, rules: IdentifierRules, classRules: IdentifierRules? = nil) {
    self.schema = schema
    self.rules = rules
    classes = schema.classes.filter { className == nil || $0.name == className }
    let mapped = (classRules ?? rules).map(schema.classes.map(\.name))
    var names: [String: MappedName] = [:]
    for (cls, name) in zip(schema.classes, mapped) { names[cls.name] = name }
    classNames = names
  }

  /// The identifier of a class (for link targets too).
  func className(_ stored: String) -> MappedName {
    classNames[stored] ?? MappedName(code: stored, plain: stored, isRenamed: false)
  }

  /// Identifiers for the properties of `cls`, unique, avoiding `taken`.
  func propertyNames(_ cls: ObjectSchema, taken: Set<String> = []) -> [MappedName] {
    rules.map(cls.properties.map(\.name), taken: taken)
  }

  /// `// Linked from A.b, C.d` and a line break for a class that has incoming links, else
  /// nothing; `comment` makes the names safe in the language's line comment.
  func linkedFromComment(_ cls: ObjectSchema, comment: (String) -> String = ModelContext.commentText) -> String {
    let links = incomingLinks(cls)
    return links.isEmpty ? "" : "// Linked from \(comment(links.joined(separator: ", ")))\n"
  }

  /// The properties of other classes (or this one) that link to objects of `cls`, as
  /// `Class.property`: Realm keeps no names for the way back (backlinks, linking objects), so
  /// the models say where one could be declared.
  func incomingLinks(_ cls: ObjectSchema) -> [String] {
    guard !cls.isEmbedded else { return [] }
    var out: [String] = []
    for source in schema.classes {
      for p in source.properties where p.type == .object && p.objectType == cls.name {
        out.append("\(source.name).\(p.name)")
      }
    }
    return out
  }

  /// `header`, then the declaration of each class (`declare`), each after a blank line.
  func document(header: String, _ declare: (ObjectSchema) -> String) -> String {
    var out = header
    for cls in classes {
      out += "\n" + declare(cls)
    }
    return out
  }

  /// `primaryKey` for the class's primary key, `indexed` for another indexed property,
  /// `fullText` for a property with a full-text index (nil in an SDK that has none: see
  /// ``noFullTextComment(_:sdk:)``), and nil for the others: the annotation each language puts
  /// before such a property.
  static func keyAnnotation(
    _ p: Property, in cls: ObjectSchema, primaryKey: String, indexed: String, fullText: String? = nil
  ) -> String? {
    if p.name == cls.primaryKey { return primaryKey }
    if p.isFullTextIndexed { return fullText }
    return p.isIndexed ? indexed : nil
  }

  /// For a property with a full-text index, in an SDK that cannot declare one: a `//` comment
  /// line saying so (an SDK app opening the file with such a model removes the index, as it
  /// removes any index its model does not declare); "" for other properties.
  static func noFullTextComment(_ p: Property, sdk: String, indent: String) -> String {
    guard p.isFullTextIndexed else { return "" }
    return "\(indent)// Full-text index in the file: \(sdk) cannot declare one (opening the file with this model removes it).\n"
  }

  /// The comment a model file starts with: `// Realm Kotlin models for this file (schema
  /// version 3).` (`models`, then `note` before the period), `// Open it with:` and the lines of
  /// `code` that open the file.
  func openingComment(_ models: String, note: String = "", openWith code: [String]) -> String {
    var out = "// \(models) for this file (\(versionText))\(note).\n// Open it with:\n"
    for line in code { out += "//   \(line)\n" }
    return out
  }

  /// `schema version 3` or `no schema version`.
  var versionText: String {
    schema.schemaVersion.map { "schema version \($0)" } ?? "no schema version"
  }

  /// The schema version to open the file with (0 for an unversioned file).
  var openVersion: Int64 { schema.schemaVersion ?? 0 }

  /// How a string literal writes a control character other than `\n`, `\r`, `\t`.
  enum ControlEscape {
    /// `\u0001` (Kotlin, JavaScript, C#, Dart).
    case unicode
    /// `\001`: Java, whose `\u` escapes apply before lexing, even in strings.
    case octal
    /// `\u{1}` (Swift).
    case swift
  }

  /// A string literal with `\\`, the quote and control characters escaped; `escapeDollar`
  /// for languages where `$` starts a template (Kotlin, Dart).
  static func quoted(
    _ s: String, quote: Character = "\"", escapeDollar: Bool = false, controls: ControlEscape = .unicode
  ) -> String {
    let hex = Array("0123456789abcdef")
    var out = String(quote)
    for c in s.unicodeScalars {
      switch c {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "$" where escapeDollar: out += "\\$"
      default:
        if Character(c) == quote {
          out += "\\" + String(quote)
        } else if c.value < 0x20 || c.value == 0x7F {
          switch controls {
          case .octal:
            let octal = String(c.value, radix: 8)
            out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
          case .swift:
            out += "\\u{" + String(c.value, radix: 16) + "}"
          case .unicode:
            out += "\\u00" + String(hex[Int(c.value >> 4) & 0xF]) + String(hex[Int(c.value) & 0xF])
          }
        } else {
          out.unicodeScalars.append(c)
        }
      }
    }
    return out + String(quote)
  }

  /// A comment line's text: line breaks and control characters become spaces.
  static func commentText(_ s: String) -> String {
    String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
  }
}


/// The name a language gives each Realm value type, and the import that name needs.
struct TypeNames: Sendable {
  /// The type of each Realm type (`.object` is the target class's identifier).
  var names: [PropertyType: String]
  /// The import (Kotlin, Java) that each name needs, if any.
  var imports: [PropertyType: String] = [:]

  /// The element type of `p`: its value type, or its target class's identifier for links.
  func name(of p: Property, _ context: ModelContext, imports used: inout Set<String>) -> String {
    if p.type == .object { return context.className(p.objectType ?? "").plain }
    if let i = imports[p.type] { used.insert(i) }
    return names[p.type] ?? p.type.rawValue
  }

  /// The same, for languages that need no imports.
  func name(of p: Property, _ context: ModelContext) -> String {
    var ignored = Set<String>()
    return name(of: p, context, imports: &ignored)
  }
}

extension ModelContext {
  /// Whether the elements of a list, set or dictionary are declared nullable: optional
  /// primitive elements, objects in dictionaries (objects in lists and sets never are), never
  /// mixed values (they hold their own null).
  static func elementIsNullable(_ p: Property) -> Bool {
    p.type != .mixed && (p.type == .object ? p.collection == .dictionary : p.isOptional)
  }
}

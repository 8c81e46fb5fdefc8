import RealmFormat

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

  /// `schema version 3` or `no schema version`.
  var versionText: String {
    schema.schemaVersion.map { "schema version \($0)" } ?? "no schema version"
  }

  /// The schema version to open the file with (0 for an unversioned file).
  var openVersion: Int64 { schema.schemaVersion ?? 0 }

  /// A string literal with `\\`, the quote and control characters escaped. `escapeDollar` for
  /// languages where `$` starts a template (Kotlin, Dart); control characters other than
  /// `\n`, `\r`, `\t` as `\u00XX`, or as octal for Java (whose `\u` escapes apply before
  /// lexing).
  static func quoted(
    _ s: String, quote: Character = "\"", escapeDollar: Bool = false, octalControls: Bool = false
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
          if octalControls {
            let octal = String(c.value, radix: 8)
            out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
          } else {
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


/// SQL identifiers: quoting, and names that cannot collide.
enum SQLIdentifier {
  /// `"name"` with embedded double quotes doubled. Every identifier realmctl writes is quoted,
  /// so keywords (`order`, `group`) and any character are safe. NUL, which no SQL text can hold,
  /// and CR, which the sqlite3 shell drops at a line end, become U+FFFD.
  static func quoted(_ name: String) -> String {
    var out = "\""
    for c in name.unicodeScalars {
      switch c {
      case "\"": out += "\"\""
      case "\u{0}", "\r": out += "\u{FFFD}"
      default: out.unicodeScalars.append(c)
      }
    }
    return out + "\""
  }

  /// Text safe inside a `--` comment: line breaks and other control characters become spaces.
  static func commentText(_ text: String) -> String {
    String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
  }
}

/// A set of names in which a new name is made unique, the way SQLite compares identifiers:
/// ASCII letters without regard to case (`Name` and `name` collide), everything else exactly.
struct SQLNameSpace {
  private var used: Set<String> = []

  /// Folds ASCII upper case to lower case, as SQLite does for identifiers.
  static func folded(_ name: String) -> String {
    String(String.UnicodeScalarView(name.unicodeScalars.map { s in
      s.value >= 65 && s.value <= 90 ? Unicode.Scalar(s.value + 32)! : s
    }))
  }

  /// Whether `name` is taken.
  func contains(_ name: String) -> Bool { used.contains(SQLNameSpace.folded(name)) }

  /// Takes `desired` if free, else the first free of `desired_2`, `desired_3`, …
  mutating func claim(_ desired: String) -> String {
    var candidate = desired
    var n = 2
    while used.contains(SQLNameSpace.folded(candidate)) {
      candidate = "\(desired)_\(n)"
      n += 1
    }
    used.insert(SQLNameSpace.folded(candidate))
    return candidate
  }
}

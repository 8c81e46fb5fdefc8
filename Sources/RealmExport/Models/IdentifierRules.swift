/// What a language accepts as an identifier, and how a stored Realm name that it does not
/// accept becomes one.
struct IdentifierRules: Sendable {
  /// Whether a scalar may start an identifier.
  var isStart: @Sendable (Unicode.Scalar) -> Bool
  /// Whether a scalar may continue an identifier.
  var isContinue: @Sendable (Unicode.Scalar) -> Bool
  /// Keywords: not identifiers, unless the language can escape them (``escape``).
  var keywords: Set<String>
  /// Names an identifier must not take here, escaped or not: members every model class
  /// already has, names the language forbids for types.
  var forbidden: Set<String> = []
  /// How a keyword is written when the language can escape it (Swift and Kotlin backticks);
  /// nil: keywords are renamed like any other unusable name.
  var escape: (@Sendable (String) -> String)? = nil
  /// Leading underscores make a name private (Dart): they are dropped from identifiers.
  var dropsLeadingUnderscores = false
  /// Prefix for a name whose first character cannot start an identifier (`_1st`).
  var startPrefix = "_"
  /// Names that differ only in ASCII case collide (Java class names are file names).
  var caseInsensitive = false
  /// Names that differ only in the case of their first letter collide: Kotlin properties
  /// compile to JVM accessors (`name` and `Name` both to `getName`/`setName`).
  var accessorsCollide = false
  /// Latin letters with diacritics become their ASCII letters before anything else is
  /// replaced (`größe` → `groesse`, `naïve` → `naive`), for ASCII-only languages.
  var transliterates = false

  /// A letter (any script), `_`.
  static let letterOrUnderscore: @Sendable (Unicode.Scalar) -> Bool = { s in
    s == "_" || s.properties.isAlphabetic
  }
  /// A letter, a digit (any script), `_`.
  static let letterDigitOrUnderscore: @Sendable (Unicode.Scalar) -> Bool = { s in
    s == "_" || s.properties.isAlphabetic || s.properties.numericType == .decimal
  }
  /// ASCII letters and `_` only.
  static let asciiLetterOrUnderscore: @Sendable (Unicode.Scalar) -> Bool = { s in
    s == "_" || (s >= "a" && s <= "z") || (s >= "A" && s <= "Z")
  }
  /// ASCII letters, digits and `_` only.
  static let asciiLetterDigitOrUnderscore: @Sendable (Unicode.Scalar) -> Bool = { s in
    asciiLetterOrUnderscore(s) || (s >= "0" && s <= "9")
  }
}

/// One stored name as an identifier of the target language.
struct MappedName: Sendable, Equatable {
  /// The identifier as written in code (with backticks where the language escapes keywords).
  var code: String
  /// The identifier without escaping (for accessor names and references).
  var plain: String
  /// True when the identifier differs from the stored name, so the declaration must map it
  /// back (`@PersistedName`, `mapTo`, `[MapTo]`, …).
  var isRenamed: Bool
}

extension IdentifierRules {
  /// Whether `name` is usable verbatim (possibly escaped).
  func accepts(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, isStart(first) else { return false }
    if dropsLeadingUnderscores && first == "_" { return false }
    return name.unicodeScalars.dropFirst().allSatisfy(isContinue)
  }

  /// Identifiers for `names` (one scope: the classes of a file, or the properties of a class),
  /// in order, unique within the scope and not in `taken`.
  ///
  /// Names the language accepts as they are keep them (keywords escaped where the language
  /// can); the others are made identifiers (unusable characters become `_`, a bad first
  /// character gets a prefix, keywords a trailing `_`) and, if that is taken, get the first
  /// free suffix `_2`, `_3`, …, so that no two ever collide.
  func map(_ names: [String], taken: Set<String> = []) -> [MappedName] {
    var used = Set(taken.map(key))
    var result: [MappedName?] = Array(repeating: nil, count: names.count)
    // First the names that stay as they are, so that renamed ones never take their place.
    for (i, name) in names.enumerated() where accepts(name) && !forbidden.contains(name) {
      let isKeyword = keywords.contains(name)
      if isKeyword && escape == nil { continue }
      guard !used.contains(key(name)) else { continue }
      used.insert(key(name))
      result[i] = MappedName(code: isKeyword ? escape!(name) : name, plain: name, isRenamed: false)
    }
    for (i, name) in names.enumerated() where result[i] == nil {
      var base = sanitized(name)
      if keywords.contains(base) || forbidden.contains(base) { base += "_" }
      var candidate = base
      var n = 2
      while used.contains(key(candidate)) || keywords.contains(candidate) || forbidden.contains(candidate) {
        candidate = "\(base)_\(n)"
        n += 1
      }
      used.insert(key(candidate))
      result[i] = MappedName(code: candidate, plain: candidate, isRenamed: true)
    }
    return result.map { $0! }
  }

  private func key(_ name: String) -> String {
    if caseInsensitive { return name.lowercased() }
    if accessorsCollide, let first = name.first { return first.uppercased() + name.dropFirst() }
    return name
  }

  /// `name` with unusable characters replaced by `_`, and ``startPrefix`` in front when the
  /// first character cannot start an identifier (`first name` → `first_name`, `1st` → `_1st`,
  /// `$price` → `_price`).
  private func sanitized(_ name: String) -> String {
    var scalars = Array(name.unicodeScalars)
    if transliterates { scalars = scalars.flatMap { LatinTransliteration.ascii($0) } }
    if dropsLeadingUnderscores {
      while scalars.first == "_" { scalars.removeFirst() }
    }
    var out = String.UnicodeScalarView(scalars.map { isContinue($0) ? $0 : "_" })
    if dropsLeadingUnderscores {
      while out.first == "_" { out.removeFirst() }
    }
    if let first = out.first, !isStart(first) || (dropsLeadingUnderscores && first == "_") {
      out.insert(contentsOf: startPrefix.unicodeScalars, at: out.startIndex)
    }
    if out.isEmpty { out.append("x") }
    return String(out)
  }
}

/// ASCII spellings of the Latin-1 and Latin Extended-A letters (`é` → `e`, `ß` → `ss`).
enum LatinTransliteration {
  private static let table: [UInt32: String] = {
    let groups: [(String, String)] = [
      ("ÀÁÂÃÅĀĂĄ", "A"), ("àáâãåāăą", "a"), ("ÇĆĈĊČ", "C"), ("çćĉċč", "c"), ("ĎĐ", "D"), ("ďđ", "d"),
      ("ÈÉÊËĒĔĖĘĚ", "E"), ("èéêëēĕėęě", "e"), ("ĜĞĠĢ", "G"), ("ĝğġģ", "g"), ("ĤĦ", "H"), ("ĥħ", "h"),
      ("ÌÍÎÏĨĪĬĮİ", "I"), ("ìíîïĩīĭįı", "i"), ("Ĵ", "J"), ("ĵ", "j"), ("Ķ", "K"), ("ķĸ", "k"),
      ("ĹĻĽĿŁ", "L"), ("ĺļľŀł", "l"), ("ÑŃŅŇŊ", "N"), ("ñńņňŉŋ", "n"), ("ÒÓÔÕØŌŎŐ", "O"),
      ("òóôõøōŏő", "o"), ("ŔŖŘ", "R"), ("ŕŗř", "r"), ("ŚŜŞŠ", "S"), ("śŝşš", "s"), ("ŢŤŦ", "T"),
      ("ţťŧ", "t"), ("ÙÚÛŨŪŬŮŰŲ", "U"), ("ùúûũūŭůűų", "u"), ("Ŵ", "W"), ("ŵ", "w"), ("ÝŶŸ", "Y"),
      ("ýÿŷ", "y"), ("ŹŻŽ", "Z"), ("źżž", "z"), ("Ä", "Ae"), ("ä", "ae"), ("Ö", "Oe"), ("ö", "oe"),
      ("Ü", "Ue"), ("ü", "ue"), ("ß", "ss"), ("Æ", "AE"), ("æ", "ae"), ("Œ", "OE"), ("œ", "oe"),
      ("Þ", "Th"), ("þ", "th"), ("Ð", "D"), ("ð", "d"),
    ]
    var t: [UInt32: String] = [:]
    for (letters, ascii) in groups {
      for s in letters.unicodeScalars { t[s.value] = ascii }
    }
    return t
  }()

  /// The ASCII spelling of `s`, or `s` itself.
  static func ascii(_ s: Unicode.Scalar) -> [Unicode.Scalar] {
    guard let replacement = table[s.value] else { return [s] }
    return Array(replacement.unicodeScalars)
  }
}

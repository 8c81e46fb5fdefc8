/// How many terminal columns a character takes, as terminals draw it (wcwidth's rules).
///
/// 0 for combining marks, format characters and joiners; 2 for East Asian wide and fullwidth
/// characters and emoji drawn as pictures; 1 for the rest. Control characters never reach the
/// screen (the editor shows them as `^X`, two columns).
public enum CharacterWidth {
  /// Columns `character` takes.
  public static func of(_ character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.value < 0x20 || first.value == 0x7F { return 2 }
    // An emoji sequence (with a variation selector 16 or a joiner) is drawn as one picture.
    if scalars.count > 1
      && scalars.contains(where: { $0.value == 0xFE0F || $0.value == 0x200D })
      && scalars.contains(where: { $0.properties.isEmoji })
    {
      return 2
    }
    var width = 0
    for scalar in scalars { width = max(width, of(scalar)) }
    return width
  }

  /// Columns `text` takes.
  public static func of(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + of($1) }
  }

  /// Columns one scalar takes on its own.
  static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if v == 0x200B || (0x1160...0x11FF).contains(v) { return 0 }
    if scalar.properties.isEmojiPresentation { return 2 }
    return isEastAsianWide(v) ? 2 : 1
  }

  /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode's EastAsianWidth.txt, grouped.
  private static func isEastAsianWide(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
      0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
      0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
      0x16FE0...0x16FE4, 0x17000...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF,
      0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}

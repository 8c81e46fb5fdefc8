/// Terminal column widths of text, for aligned output.
enum DisplayWidth {
  /// Columns a character takes: 2 for East Asian wide and emoji, 0 for combining marks and
  /// joiners on their own, 1 otherwise (an approximation of wcwidth, enough for alignment).
  static func of(_ c: Character) -> Int {
    var width = 0
    for scalar in c.unicodeScalars {
      let v = scalar.value
      if isWide(v) { return 2 }
      if !isZeroWidth(v) { width = 1 }
    }
    return width
  }

  /// Columns a string takes.
  static func of(_ s: String) -> Int {
    var n = 0
    for c in s { n += of(c) }
    return n
  }

  private static func isWide(_ v: UInt32) -> Bool {
    (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
      || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
      || (0xFF00...0xFF60).contains(v)
      || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v)
      || (0x20000...0x3FFFD).contains(v)
  }

  private static func isZeroWidth(_ v: UInt32) -> Bool {
    (0x0300...0x036F).contains(v) || v == 0x200B || v == 0x200C || v == 0x200D
      || (0xFE00...0xFE0F).contains(v)
  }

  /// `s` cut to at most `width` columns, ending with `…` when something was cut.
  static func truncate(_ s: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    if of(s) <= width { return s }
    var out = ""
    var used = 0
    for c in s {
      let w = of(c)
      if used + w > width - 1 { break }
      out.append(c)
      used += w
    }
    return out + "…"
  }
}

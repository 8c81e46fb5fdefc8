import RealmModel

/// The text of one progress line: a pure function of the counts and the elapsed time.
///
/// ```text
/// Dumping big.realm  41% [========>            ] 412,318/1,000,000 objects  203,114/s  0:02 left
/// Compacting big.realm  51% [==========>          ] 41.2/80.0 MB  12.3 MB/s  0:03 left
/// Dumping big.realm  412,318 objects  203,114/s
/// ```
/// The bar, then parts from the right are dropped until the line fits in `width - 1` columns,
/// so it never wraps (a wrapped line cannot be redrawn in place).
public enum ProgressLine {
  /// Characters inside the bar's brackets.
  static let barWidth = 20

  /// The line for `completed` of `total` (nil: unknown) `unit`s after `elapsed` seconds.
  public static func render(
    label: String, completed: Int, total: Int?, unit: ProgressCounter.Unit, elapsed: Double,
    width: Int
  ) -> String {
    let done = max(0, completed)
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    var parts: [String] = []
    var percent: String?
    var bar: String?
    if let total, total > 0 {
      let fraction = min(1, Double(done) / Double(total))
      percent = "\(Int(fraction * 100))%"
      bar = self.bar(fraction)
      parts.append(amount(done, of: total, unit: unit))
    } else {
      parts.append(amount(done, of: nil, unit: unit))
    }
    if rate > 0 { parts.append(rateText(rate, unit: unit)) }
    if let total, total > done, rate > 0, elapsed >= 1 {
      parts.append(duration(Double(total - done) / rate) + " left")
    }
    // What goes first when the line is too wide: the bar, then the time left, then the rate.
    let limit = max(10, width - 1)
    while true {
      var line = label
      if let percent { line += "  " + percent }
      if let bar { line += " " + bar }
      for part in parts { line += "  " + part }
      if line.count <= limit { return line }
      if bar != nil {
        bar = nil
      } else if parts.count > 1 {
        parts.removeLast()
      } else {
        return String(line.prefix(limit))
      }
    }
  }

  /// `[=======>         ]` for a fraction in 0...1.
  static func bar(_ fraction: Double) -> String {
    let filled = Int((fraction * Double(barWidth)).rounded(.down))
    if filled >= barWidth { return "[" + String(repeating: "=", count: barWidth) + "]" }
    return "[" + String(repeating: "=", count: filled) + ">"
      + String(repeating: " ", count: barWidth - filled - 1) + "]"
  }

  /// `412,318/1,000,000 objects`, `41.2/80.0 MB`.
  static func amount(_ done: Int, of total: Int?, unit: ProgressCounter.Unit) -> String {
    switch unit {
    case .objects:
      let noun = (total ?? done) == 1 ? "object" : "objects"
      if let total { return "\(grouped(done))/\(grouped(total)) \(noun)" }
      return "\(grouped(done)) \(noun)"
    case .bytes:
      let scale = byteScale(total ?? done)
      if let total { return "\(decimal(done, scale))/\(decimal(total, scale)) \(scale.name)" }
      return "\(decimal(done, scale)) \(scale.name)"
    }
  }

  /// `203,114/s`, `12.3 MB/s`.
  static func rateText(_ rate: Double, unit: ProgressCounter.Unit) -> String {
    switch unit {
    case .objects: return "\(grouped(Int(rate.rounded())))/s"
    case .bytes:
      let perSecond = Int(rate.rounded())
      let scale = byteScale(perSecond)
      return "\(decimal(perSecond, scale)) \(scale.name)/s"
    }
  }

  /// `0:07`, `12:03`, `1:02:03`.
  static func duration(_ seconds: Double) -> String {
    let total = seconds.isFinite ? Int(min(seconds, 359_999).rounded(.up)) : 359_999
    let h = total / 3600
    let m = total / 60 % 60
    let s = total % 60
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
  }

  /// `1,234,567`.
  static func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
      out.append(c)
    }
    return n < 0 ? "-" + out : out
  }

  private static func byteScale(_ n: Int) -> (name: String, divisor: Double) {
    switch n {
    case ..<1_000: ("bytes", 1)
    case ..<1_000_000: ("kB", 1e3)
    case ..<1_000_000_000: ("MB", 1e6)
    default: ("GB", 1e9)
    }
  }

  /// One decimal place, except for plain bytes.
  private static func decimal(_ n: Int, _ scale: (name: String, divisor: Double)) -> String {
    if scale.divisor == 1 { return String(n) }
    let tenths = Int((Double(n) / scale.divisor * 10).rounded(.down))
    return "\(tenths / 10).\(tenths % 10)"
  }
}

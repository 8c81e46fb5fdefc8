import RealmFormat

/// A string property's `==`, `!=`, `BEGINSWITH`, `ENDSWITH` or `CONTAINS` (and their `[c]`
/// forms where the pattern's only letters that fold are ASCII) evaluated on the stored bytes
/// of a leaf: no UTF-8 check, no value per object, and on a short-string leaf one loop over its
/// fixed-width slots (a 16-byte-wide first/last byte filter over the whole batch for `CONTAINS`).
///
/// Gives what ``ColumnPredicate/stringMatches(_:)`` gives on the decoded strings:
/// - The pattern is valid UTF-8 without U+FFFD, and not empty. A match of such a pattern is a
///   run of whole valid characters, so it is in the stored bytes exactly when it is in the
///   string `String(decoding:as:)` repairs them into (repair replaces only invalid bytes, by
///   U+FFFD, and never takes a lead byte into an invalid sequence).
/// - With a pattern that is not empty, null and the empty string give the same answer for
///   these conditions, so a null reads as an empty slot.
/// - Realm's `[c]` maps only ASCII and Latin-1 letters (``RealmStrings``): a pattern whose
///   case forms are equal compares as bytes; one whose folding letters are all ASCII compares
///   each text byte ORed with 0x20 at the pattern's letters with the pattern's lower case.
///   Other `[c]` patterns take the general path.
struct StringLeafScan: Sendable {
  enum Operation: Sendable { case equal, notEqual, beginsWith, endsWith, contains }

  let operation: Operation
  /// The pattern (for `[c]`: its lower case).
  let needle: [UInt8]
  /// 0x20 at the ASCII letters of a `[c]` pattern, 0 elsewhere: byte `t` matches `needle[j]`
  /// when `t | mask[j] == needle[j]`.
  let mask: [UInt8]
  /// The pattern's first and last 8 (or 4) bytes and their masks, as ``Probe`` compares them.
  private let words: (head: UInt64, headMask: UInt64, tail: UInt64, tailMask: UInt64)

  init?(condition: QueryCondition, pattern: [UInt8]?) {
    guard var pattern, !pattern.isEmpty, !Self.containsReplacementCharacter(pattern) else { return nil }
    let operations: [QueryCondition: (Operation, folds: Bool)] = [
      .equal: (.equal, false), .notEqual: (.notEqual, false), .beginsWith: (.beginsWith, false),
      .endsWith: (.endsWith, false), .contains: (.contains, false), .equalIns: (.equal, true),
      .notEqualIns: (.notEqual, true), .beginsWithIns: (.beginsWith, true), .endsWithIns: (.endsWith, true),
      .containsIns: (.contains, true),
    ]
    guard let found = operations[condition] else { return nil }
    operation = found.0
    let folds = found.folds
    var mask = [UInt8](repeating: 0, count: pattern.count)
    if folds {
      let folded = RealmStrings.Folded(pattern)
      guard folded.count == pattern.count else { return nil }
      if folded.lower != folded.upper {
        // Only ASCII letters may fold here: Latin-1 letters take the general path.
        guard !pattern.contains(where: { $0 >= 0x80 }) else { return nil }
        pattern = folded.lower
        for j in pattern.indices where pattern[j] >= 0x61 && pattern[j] <= 0x7A { mask[j] = 0x20 }
      }
    }
    needle = pattern
    self.mask = mask
    func word(_ b: [UInt8], _ at: Int, _ size: Int) -> UInt64 {
      var x: UInt64 = 0
      for j in 0..<size { x |= UInt64(b[at + j]) << (8 * j) }
      return x
    }
    let n = pattern.count
    let size = n >= 8 ? 8 : (n >= 4 ? 4 : 0)
    words = (word(pattern, 0, size), word(mask, 0, size), word(pattern, n - size, size), word(mask, n - size, size))
  }

  /// U+FFFD (EF BF BD), the character a repaired string holds for invalid bytes.
  private static func containsReplacementCharacter(_ p: [UInt8]) -> Bool {
    guard p.count >= 3 else { return false }
    for j in 0...(p.count - 3) where p[j] == 0xEF && p[j + 1] == 0xBF && p[j + 2] == 0xBD { return true }
    return false
  }

  /// Sets `out[i]` for each active object of `leaf` that matches (`out` is false elsewhere).
  func select(_ leaf: LeafColumn, _ active: [Bool], _ out: inout [Bool]) throws {
    let short = try leaf.withShortStringSlots { slots in
      needle.withUnsafeBufferPointer { n in
        mask.withUnsafeBufferPointer { m in
          active.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBufferPointer { o in
              let probe = Probe(needle: n, mask: m, words: words)
              if operation == .contains {
                Self.contains(slots, probe, a, o)
              } else {
                Self.compare(slots, operation, probe, a, o)
              }
            }
          }
        }
      }
    }
    guard !short else { return }
    try needle.withUnsafeBufferPointer { n in
      try mask.withUnsafeBufferPointer { m in
        let probe = Probe(needle: n, mask: m, words: words)
        try leaf.forEachRawString(active) { i, text in out[i] = Self.matches(text, operation, probe) }
      }
    }
  }

  /// The condition on one string's stored bytes (nil: null).
  func matches(_ text: UnsafeBufferPointer<UInt8>?) -> Bool {
    needle.withUnsafeBufferPointer { n in
      mask.withUnsafeBufferPointer { m in Self.matches(text, operation, Probe(needle: n, mask: m, words: words)) }
    }
  }

  private static func matches(_ text: UnsafeBufferPointer<UInt8>?, _ operation: Operation, _ probe: Probe) -> Bool {
    let length = text?.count ?? 0
    let n = probe.count
    guard let base = text?.baseAddress, length >= n else { return operation == .notEqual }
    switch operation {
    case .equal: return length == n && probe.matches(at: base)
    case .notEqual: return length != n || !probe.matches(at: base)
    case .beginsWith: return probe.matches(at: base)
    case .endsWith: return probe.matches(at: base + (length - n))
    case .contains:
      for k in 0...(length - n) where probe.matches(at: base + k) { return true }
      return false
    }
  }

  /// `==`, `!=`, `BEGINSWITH`, `ENDSWITH` slot by slot.
  private static func compare(
    _ slots: ShortStringSlots, _ operation: Operation, _ probe: Probe,
    _ active: UnsafeBufferPointer<Bool>, _ out: UnsafeMutableBufferPointer<Bool>
  ) {
    let n = probe.count
    let w = slots.width
    let start = slots.start
    guard w > n else {
      // No slot holds a string as long as the pattern.
      if operation == .notEqual { for i in 0..<slots.count { out[i] = active[i] } }
      return
    }
    // The pattern is compared first (it fits in a slot), then the length, from the slot's
    // last byte: length = w - 1 - pad, so length >= n is pad + n < w.
    var p = start
    switch operation {
    case .equal:
      for i in 0..<slots.count {
        if active[i] { out[i] = probe.matches(at: p) && Int(p[w &- 1]) &+ n == w &- 1 }
        p += w
      }
    case .notEqual:
      for i in 0..<slots.count {
        if active[i] { out[i] = !probe.matches(at: p) || Int(p[w &- 1]) &+ n != w &- 1 }
        p += w
      }
    case .beginsWith:
      for i in 0..<slots.count {
        if active[i] { out[i] = probe.matches(at: p) && Int(p[w &- 1]) &+ n < w }
        p += w
      }
    case .endsWith:
      for i in 0..<slots.count where active[i] {
        let length = slots.length(i)
        out[i] = length >= n && probe.matches(at: start + (i &* w &+ length &- n))
      }
    case .contains:
      break
    }
  }

  /// `CONTAINS` over the batch's slots as one run of bytes: 16 positions at a time are
  /// kept when their byte is the pattern's first and the byte `n - 1` further on its last;
  /// each kept position is checked whole, and counts when it lies inside its slot's string.
  private static func contains(
    _ slots: ShortStringSlots, _ probe: Probe, _ active: UnsafeBufferPointer<Bool>, _ out: UnsafeMutableBufferPointer<Bool>
  ) {
    let n = probe.count
    let w = slots.width
    guard w > n else { return }
    let start = slots.start
    let total = slots.count &* w
    func candidate(_ position: Int) {
      let i = position / w
      let offset = position &- i &* w
      if active[i], !out[i], offset &+ n <= slots.length(i), probe.matches(at: start + position) { out[i] = true }
    }
    let first = SIMD16<UInt8>(repeating: probe.needle[0])
    let firstMask = SIMD16<UInt8>(repeating: probe.mask[0])
    let last = SIMD16<UInt8>(repeating: probe.needle[n &- 1])
    let lastMask = SIMD16<UInt8>(repeating: probe.mask[n &- 1])
    let raw = UnsafeRawPointer(start)
    var k = 0
    // Both 16-byte loads stay inside the batch's slots.
    while k &+ n &- 1 &+ 16 <= total {
      let a = raw.loadUnaligned(fromByteOffset: k, as: SIMD16<UInt8>.self) | firstMask
      let b = raw.loadUnaligned(fromByteOffset: k &+ n &- 1, as: SIMD16<UInt8>.self) | lastMask
      // The lanes as two words (0xFF per kept byte): `any(_:)` is a slow generic reduction.
      let hit = unsafeBitCast((a .== first) .& (b .== last), to: SIMD2<UInt64>.self)
      if hit[0] | hit[1] != 0 {
        for half in 0..<2 {
          var bits = hit[half]
          while bits != 0 {
            let j = bits.trailingZeroBitCount >> 3
            candidate(k &+ half &* 8 &+ j)
            bits &= ~(0xFF << UInt64(j &* 8))
          }
        }
      }
      k &+= 16
    }
    while k &+ n <= total {
      candidate(k)
      k &+= 1
    }
  }
}

/// A pattern compared at a position: two overlapping words for patterns of 4 to 16 bytes,
/// bytes otherwise; each text byte is ORed with the mask first.
private struct Probe {
  let needle: UnsafeBufferPointer<UInt8>
  let mask: UnsafeBufferPointer<UInt8>
  let count: Int
  let head: UInt64
  let headMask: UInt64
  let tail: UInt64
  let tailMask: UInt64

  init(
    needle: UnsafeBufferPointer<UInt8>, mask: UnsafeBufferPointer<UInt8>,
    words: (head: UInt64, headMask: UInt64, tail: UInt64, tailMask: UInt64)
  ) {
    self.needle = needle
    self.mask = mask
    count = needle.count
    (head, headMask, tail, tailMask) = words
  }

  /// Whether the `count` bytes at `p` match the pattern.
  @inline(__always)
  func matches(at p: UnsafePointer<UInt8>) -> Bool {
    let raw = UnsafeRawPointer(p)
    if count >= 8 {
      guard UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) | headMask == head,
        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) | tailMask == tail
      else { return false }
      if count <= 16 { return true }
      for j in 8..<(count &- 8) where p[j] | mask[j] != needle[j] { return false }
      return true
    }
    if count >= 4 {
      return UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))) | headMask == head
        && UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self))) | tailMask == tail
    }
    for j in 0..<count where p[j] | mask[j] != needle[j] { return false }
    return true
  }
}

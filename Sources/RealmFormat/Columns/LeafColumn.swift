import RealmModel
/// One property's values for a batch of consecutive objects of a cluster leaf, read straight
/// from the mapped file: what a filter compares without building a value per object.
///
/// Each `forEach…` call walks the batch's rows in one loop over the leaf (no copy of the
/// values), passing every row whose `active` flag is set. The values are the ones
/// ``ColumnValues/value(at:)`` gives for the same rows: a null string of a non-nullable column
/// reads as the empty string, bytes that are not valid UTF-8 as `String(decoding:as:)`
/// repairs them, floats widened to `Double`.
public struct LeafColumn {
  /// The form of the values.
  public enum Kind: Sendable, Equatable {
    case int, double, float, timestamp, string
  }

  let leaf: ValueLeaf
  /// The rows of the leaf in the batch.
  let rows: Range<Int>
  let budget: DecodeBudget
  /// The form of the values.
  public let kind: Kind

  /// A view of `rows` of `leaf`, nil for kinds read only as ``ColumnValues``.
  init?(_ leaf: ValueLeaf, rows: Range<Int>, budget: DecodeBudget) {
    switch leaf {
    case .int: kind = .int
    case .string: kind = .string
    case .timestamp: kind = .timestamp
    case .floating(let l): kind = l.isDouble ? .double : .float
    default: return nil
    }
    self.leaf = leaf
    self.rows = rows
    self.budget = budget
  }

  /// Number of objects in the batch.
  public var count: Int { rows.count }

  /// Calls `body` with each active object's position in the batch and its string as valid
  /// UTF-8 (nil when null).
  public func forEachString(
    _ active: [Bool], _ body: (_ i: Int, _ utf8: UnsafeBufferPointer<UInt8>?) -> Void
  ) throws(FormatError) {
    try forEachRawString(active) { i, raw in
      guard let raw, !UTF8Check.isValid(raw) else { return body(i, raw) }
      var repaired = String(decoding: raw, as: UTF8.self)
      repaired.withUTF8 { body(i, $0) }
    }
  }

  /// Calls `body` with each active object's position and its string's bytes as stored, not
  /// checked as UTF-8 (nil when null; a null of a non-nullable column reads as empty): for
  /// conditions whose answer on the stored bytes is the answer on the repaired string.
  public func forEachRawString(
    _ active: [Bool], _ body: (_ i: Int, _ bytes: UnsafeBufferPointer<UInt8>?) -> Void
  ) throws(FormatError) {
    guard case .string(let l, let nullable) = leaf else { return }
    var spent = 0
    try l.forEachBytes(rows, active) { i, raw in
      guard let raw else {
        body(i, nullable ? nil : UnsafeBufferPointer(start: nil, count: 0))
        return
      }
      spent &+= raw.count
      body(i, raw.bindMemory(to: UInt8.self))
    }
    try budget.spend(ReadBudget.cost(ofPayloadBytes: spent))
  }

  /// The batch's strings as the fixed-width slots of a short-string leaf (Realm's
  /// `ArrayStringShort`, §6.3) straight from the file, every slot's length byte checked; nil
  /// for the other string forms. The bytes are as stored, not checked as UTF-8.
  public func shortStringSlots() throws(FormatError) -> ShortStringSlots? {
    guard let slots = uncheckedShortStringSlots() else { return nil }
    try check(slots)
    return slots
  }

  /// Calls `body` with the batch's slots as ``shortStringSlots()`` gives them, then checks
  /// their length bytes, while the slots are still in the processor's cache: the leaf is
  /// read from memory once, by `body`, not first by the check. `body` must stay inside the
  /// slots whatever their length bytes say (``ShortStringSlots/length(_:)`` is below the
  /// width); what it found is void when this throws.
  ///
  /// - Returns: false, without calling `body`, for the other string forms.
  public func withShortStringSlots(_ body: (ShortStringSlots) throws -> Void) throws -> Bool {
    guard let slots = uncheckedShortStringSlots() else { return false }
    try body(slots)
    try check(slots)
    return true
  }

  private func uncheckedShortStringSlots() -> ShortStringSlots? {
    guard case .string(let l, let nullable) = leaf, case .short(let node) = l.form else { return nil }
    let w = node.width
    // The node's payload was validated to hold count * w bytes.
    let start = node.reader.base.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self) + node.payload + rows.lowerBound &* w
    return ShortStringSlots(start: UnsafePointer(start), width: w, count: rows.count, nullable: nullable, node: node.ref, first: rows.lowerBound)
  }

  /// Throws for a slot whose length byte is above the width; charges the slots' bytes.
  private func check(_ slots: ShortStringSlots) throws(FormatError) {
    let w = slots.width
    guard w > 0 else { return }
    let start = slots.start
    // One pass without branches over the length bytes; the slots' bytes are charged whole.
    var largest: UInt8 = 0
    var p = start + (w &- 1)
    for _ in 0..<slots.count {
      largest = max(largest, p.pointee)
      p += w
    }
    if Int(largest) > w {
      let i = (0..<slots.count).first { Int(start[$0 &* w &+ w &- 1]) > w } ?? 0
      throw FormatError.corrupt(
        "short string \(slots.first &+ i) at \(slots.node) has an invalid length byte \(start[i &* w &+ w &- 1])", at: slots.node.rawValue)
    }
    try budget.spend(ReadBudget.cost(ofPayloadBytes: slots.count &* (w &- 1)))
  }

  /// Calls `body` with each active object's position and integer (nil when null).
  public func forEachInt(_ active: [Bool], _ body: (_ i: Int, _ value: Int64?) -> Void) {
    guard case .int(let l) = leaf else { return }
    let first = rows.lowerBound
    for i in 0..<rows.count where active[i] { body(i, l.value(first &+ i)) }
  }

  /// Calls `body` with each active object's position and number (floats widened; nil when
  /// null).
  public func forEachDouble(_ active: [Bool], _ body: (_ i: Int, _ value: Double?) -> Void) {
    guard case .floating(let l) = leaf else { return }
    let first = rows.lowerBound
    let reader = l.node.reader
    let payload = l.node.payload
    if l.isDouble {
      for i in 0..<rows.count where active[i] {
        let bits = reader.uncheckedUInt64(at: payload &+ (first &+ i) &* 8)
        body(i, l.isNullable && bits == FloatingLeaf.nullDoubleBits ? nil : Double(bitPattern: bits))
      }
    } else {
      for i in 0..<rows.count where active[i] {
        let bits = reader.uncheckedUInt32(at: payload &+ (first &+ i) &* 4)
        body(i, l.isNullable && bits == FloatingLeaf.nullFloatBits ? nil : Double(Float(bitPattern: bits)))
      }
    }
  }

  /// Calls `body` with each active object's position and date (nil when null).
  public func forEachTimestamp(_ active: [Bool], _ body: (_ i: Int, _ value: Timestamp?) -> Void) {
    guard case .timestamp(let l) = leaf else { return }
    let first = rows.lowerBound
    for i in 0..<rows.count where active[i] { body(i, l.value(first &+ i)) }
  }
}

/// Consecutive strings of a short-string leaf (Realm's `ArrayStringShort`) as stored: `count`
/// slots of `width` bytes, each a string's bytes, zero padding, and in its last byte the number
/// of padding bytes (`width` for null). Valid while the group that gave them is open.
public struct ShortStringSlots {
  /// The first slot.
  public let start: UnsafePointer<UInt8>
  /// Bytes per slot; 0 when every value is null.
  public let width: Int
  /// Number of slots.
  public let count: Int
  /// Whether a null reads as null (true) or as the empty string.
  public let nullable: Bool
  /// The leaf and the row of the first slot, for messages.
  let node: Ref
  let first: Int

  /// The byte length of string `i` (below ``count``), -1 for null.
  @inlinable
  public func length(_ i: Int) -> Int {
    width == 0 ? -1 : width &- 1 &- Int(start[i &* width &+ width &- 1])
  }
}

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
    guard case .string(let l, let nullable) = leaf else { return }
    var spent = 0
    try l.forEachBytes(rows, active) { i, raw in
      guard let raw else {
        body(i, nullable ? nil : UnsafeBufferPointer(start: nil, count: 0))
        return
      }
      let utf8 = raw.bindMemory(to: UInt8.self)
      spent &+= raw.count
      if UTF8Check.isValid(utf8) {
        body(i, utf8)
      } else {
        var repaired = String(decoding: utf8, as: UTF8.self)
        repaired.withUTF8 { body(i, $0) }
      }
    }
    try budget.spend(ReadBudget.cost(ofPayloadBytes: spent))
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

import RealmModel
import RealmFormat

/// A first `DISTINCT` of one property of a plain type over a scan: the first object of each
/// value, kept as its key with the value in the plainest form whose equality is Realm's
/// (``ValueOrder/compare(_:_:)`` 0): bits for ints, bools, floats and doubles (±0 alike, each
/// NaN by its bits), the timestamp, ObjectId or UUID itself, the bytes of a string or binary.
/// No `QueryValue` or row is made per object, and the comparison on a hash collision is the
/// value's own `==`.
///
/// Chunks keep their own first objects on the scanning threads; the calling thread keeps the
/// first of those for the whole scan, in key order, which is DISTINCT's result.
struct DistinctKeys<Value: Hashable & Sendable>: Sendable {
  /// Values seen, null apart.
  private var seen: Set<Value> = []
  private var sawNull = false
  /// The keys of the objects kept, ascending.
  var keys: [Int64] = []
  /// Their values (a chunk's result, for the whole scan's set).
  var values: [Value?] = []
  /// Their rows, when descriptors after the DISTINCT need the objects' values.
  var rows: [DescriptorRow] = []

  /// True (and the value remembered) when no object before had `value`; nil is null.
  mutating func isFirst(_ value: Value?) -> Bool {
    guard let value else {
      if sawNull { return false }
      sawNull = true
      return true
    }
    return seen.insert(value).inserted
  }
}

/// How ``DistinctKeys`` reads one property's values from a batch: calls its last argument
/// with the position and value (nil for null) of each selected object, in order.
typealias DistinctValueReader<Value> =
  @Sendable (_ batch: SelectionBatch, _ selected: [Int], _ property: Int, _ add: (Int, Value?) -> Void) throws -> Void

enum DistinctValues {
  /// The bits that identify a double among Realm-equal values: one for ±0, a NaN's own.
  @inline(__always)
  static func bits(_ d: Double) -> UInt64 { d == 0 ? 0 : d.bitPattern }

  /// A float's, as ``bits(_:)-(Double)``.
  @inline(__always)
  static func bits(_ f: Float) -> UInt64 { f == 0 ? 0 : UInt64(f.bitPattern) }

  /// Ints, bools, floats and doubles as 64 bits (a property holds only one of these types).
  static let plainBits: DistinctValueReader<UInt64> = { batch, selected, property, add in
    switch try batch.values(property) {
    case .int(let c)?: for i in selected { add(i, c.isNull(i) ? nil : UInt64(bitPattern: c.values[i])) }
    case .bool(let c)?: for i in selected { add(i, c.isNull(i) ? nil : (c.values[i] ? 1 : 0)) }
    case .double(let c)?: for i in selected { add(i, c.isNull(i) ? nil : bits(c.values[i])) }
    case .float(let c)?: for i in selected { add(i, c.isNull(i) ? nil : bits(c.values[i])) }
    case let c?:
      // Decoded objects (a file of formats 2-9): one value at a time.
      for i in selected {
        switch c.value(at: i) {
        case .int(let x): add(i, UInt64(bitPattern: x))
        case .bool(let b): add(i, b ? 1 : 0)
        case .double(let d): add(i, bits(d))
        case .float(let f): add(i, bits(f))
        default: add(i, nil)
        }
      }
    case nil: for i in selected { add(i, nil) }
    }
  }

  static let timestamps: DistinctValueReader<Timestamp> = { batch, selected, property, add in
    switch try batch.values(property) {
    case .date(let c)?: for i in selected { add(i, c.isNull(i) ? nil : c.values[i]) }
    case let c?:
      for i in selected {
        if case .date(let t) = c.value(at: i) { add(i, t) } else { add(i, nil) }
      }
    case nil: for i in selected { add(i, nil) }
    }
  }

  static let objectIds: DistinctValueReader<ObjectId> = { batch, selected, property, add in
    let c = try batch.values(property)
    for i in selected {
      if case .objectId(let o)? = c?.value(at: i) { add(i, o) } else { add(i, nil) }
    }
  }

  static let uuids: DistinctValueReader<RealmUUID> = { batch, selected, property, add in
    let c = try batch.values(property)
    for i in selected {
      if case .uuid(let u)? = c?.value(at: i) { add(i, u) } else { add(i, nil) }
    }
  }

  /// Strings and binaries as their bytes (Realm compares both byte by byte).
  static let bytes: DistinctValueReader<[UInt8]> = { batch, selected, property, add in
    switch try batch.values(property) {
    case .string(let c)?:
      for i in selected { add(i, c.isNull(i) ? nil : Array(c.bytes[c.start(i)..<c.ends[i]])) }
    case let c?:
      for i in selected {
        switch c.value(at: i) {
        case .string(let s): add(i, Array(s.utf8))
        case .data(let d): add(i, d)
        default: add(i, nil)
        }
      }
    case nil: for i in selected { add(i, nil) }
    }
  }
}

import RealmModel
/// Encoders of the fixed-size column leaves (§6.1, 6.2, 6.5-6.9): each writes one leaf for
/// the given values into a sink and returns its ref.
public enum ScalarLeafEncoder {
  /// Realm's float null: a quiet NaN with payload 0xAA (§6.6).
  public static let nullFloatBits: UInt32 = 0x7FC0_00AA
  /// Realm's double null (§6.6).
  public static let nullDoubleBits: UInt64 = 0x7FF8_0000_0000_00AA

  /// A non-nullable integer leaf (`ArrayInteger`, §6.1).
  public static func integers<S: NodeSink>(_ values: [Int64], into sink: inout S) -> Ref {
    sink.append(NodeEncoder.integers(values))
  }

  /// A nullable integer leaf (`ArrayIntNull`, §6.1): element 0 is the null marker.
  ///
  /// Below width 64 the marker is the width's upper bound and every value is smaller, as
  /// core assumes; at width 64 the marker is the smallest int64 not among the values.
  public static func nullableIntegers<S: NodeSink>(_ values: [Int64?], into sink: inout S) -> Ref {
    sink.append(nullableIntegerNode(values))
  }

  /// The node of ``nullableIntegers(_:into:)``.
  public static func nullableIntegerNode(_ values: [Int64?]) -> [UInt8] {
    var low = Int64.max
    var high = Int64.min
    var any = false
    for case let v? in values {
      any = true
      if v < low { low = v }
      if v > high { high = v }
    }
    var width = 64
    if !any {
      width = 0
    } else {
      for w in [1, 2, 4, 8, 16, 32] where low >= NodeEncoder.lowerBound(width: w) && high < NodeEncoder.upperBound(width: w) {
        width = w
        break
      }
    }
    let marker: Int64
    if width < 64 {
      marker = NodeEncoder.upperBound(width: width)
    } else {
      let used = Set(values.compactMap { $0 })
      var candidate = Int64.min
      while used.contains(candidate) { candidate &+= 1 }
      marker = candidate
    }
    var elements = [Int64]()
    elements.reserveCapacity(values.count + 1)
    elements.append(marker)
    for v in values { elements.append(v ?? marker) }
    return NodeEncoder.integerNode(elements, width: width)
  }

  /// A bool leaf (`ArrayBoolNull`, §6.2): 0 false, 1 true, 3 null.
  public static func bools<S: NodeSink>(_ values: [Bool?], into sink: inout S) -> Ref {
    let elements = values.map { v -> Int64 in v.map { $0 ? 1 : 0 } ?? 3 }
    return sink.append(NodeEncoder.integers(elements))
  }

  /// A single-link leaf (`ArrayKey`, §6.9): target key + 1, 0 for null.
  public static func links<S: NodeSink>(_ targets: [Int64?], into sink: inout S) -> Ref {
    sink.append(NodeEncoder.integers(targets.map { $0.map { $0 &+ 1 } ?? 0 }))
  }

  /// A float leaf (§6.6); nil is Realm's null NaN. A value carrying the null bit pattern is
  /// stored as the default quiet NaN so it does not read back as null.
  public static func floats<S: NodeSink>(_ values: [Float?], into sink: inout S) -> Ref {
    sink.append(floatingPointNode(values))
  }

  /// A double leaf (§6.6); nil is Realm's null NaN, and a value carrying that bit pattern is
  /// stored as the default quiet NaN.
  public static func doubles<S: NodeSink>(_ values: [Double?], into sink: inout S) -> Ref {
    sink.append(floatingPointNode(values))
  }

  /// The node of a float or double leaf (generic in the value type only, so that the loop is
  /// specialized for it).
  @inline(__always)
  private static func floatingPointNode<F: StoredFloatingPoint>(_ values: [F?]) -> [UInt8] {
    var payload = [UInt8]()
    payload.reserveCapacity(values.count * F.storedWidth)
    for v in values {
      var bits = v?.bitPattern ?? F.nullBits
      if v != nil && bits == F.nullBits { bits = F.nan.bitPattern }
      NodeEncoder.appendLittleEndian(&payload, UInt64(bits), F.storedWidth)
    }
    return NodeEncoder.multiplyNode(width: F.storedWidth, count: values.count, payload: payload)
  }

  /// A timestamp leaf (`ArrayTimestamp`, §6.5): `[seconds ArrayIntNull, nanoseconds]`.
  public static func timestamps<S: NodeSink>(_ values: [Timestamp?], into sink: inout S) -> Ref {
    let seconds = sink.append(nullableIntegerNode(values.map { $0?.seconds }))
    let nanos = sink.append(NodeEncoder.integers(values.map { Int64($0?.nanoseconds ?? 0) }))
    return sink.append(NodeEncoder.refArray([Int64(seconds.rawValue), Int64(nanos.rawValue)]))
  }

  /// A decimal leaf (`ArrayDecimal128`, §6.7) of width 16: valid in every format from 20
  /// and for every value, so later inserts by core never need to widen it. nil is Realm's
  /// null NaN.
  public static func decimals<S: NodeSink>(_ values: [Decimal128?], into sink: inout S) -> Ref {
    var payload = [UInt8]()
    payload.reserveCapacity(values.count * 16)
    for v in values {
      let d = v ?? Decimal128.realmNull
      NodeEncoder.appendLittleEndian(&payload, d.low, 8)
      NodeEncoder.appendLittleEndian(&payload, d.high, 8)
    }
    return sink.append(NodeEncoder.multiplyNode(width: 16, count: values.count, payload: payload))
  }

  /// An ObjectId leaf (`ArrayFixedBytesNull`, §6.8).
  public static func objectIds<S: NodeSink>(_ values: [ObjectId?], into sink: inout S) -> Ref {
    sink.append(fixedBytesNode(values.map { $0?.bytes }, elementSize: 12))
  }

  /// A UUID leaf (`ArrayFixedBytesNull`, §6.8).
  public static func uuids<S: NodeSink>(_ values: [RealmUUID?], into sink: inout S) -> Ref {
    sink.append(fixedBytesNode(values.map { $0?.bytes }, elementSize: 16))
  }

  /// Blocks of one null-bitmap byte and 8 elements; wtype multiply, width 1, size = bytes.
  static func fixedBytesNode(_ values: [[UInt8]?], elementSize: Int) -> [UInt8] {
    var payload = [UInt8]()
    payload.reserveCapacity(values.count * elementSize + (values.count + 7) / 8)
    var start = 0
    while start < values.count {
      let end = min(start + 8, values.count)
      var bitmap: UInt8 = 0
      for i in start..<end where values[i] == nil { bitmap |= 1 << UInt8(i - start) }
      payload.append(bitmap)
      for i in start..<end {
        if let bytes = values[i] {
          payload.append(contentsOf: bytes)
        } else {
          // Core fills null slots with a 0xDEAD… sentinel; readers use the bitmap only.
          for j in 0..<elementSize { payload.append(j & 1 == 0 ? 0xDE : 0xAD) }
        }
      }
      start = end
    }
    return NodeEncoder.multiplyNode(width: 1, count: payload.count, payload: payload)
  }
}

import RealmModel
/// The values of one column for a run of consecutive objects (a cluster, a chunk of input
/// lines), held in the cheapest form for their type: plain arrays for numbers, bools and
/// dates, one byte buffer for strings, `RealmValue`s for everything else.
///
/// The column-wise paths use them end to end without a `RealmValue` per object: `dump`
/// encodes text straight from them, column-wise transforms compute new columns from them,
/// `create` decodes input lines into them and encodes leaves from them. Every form reads back
/// as the `RealmValue` the object-by-object paths would have seen (``value(at:)``).
public enum ColumnValues: Sendable, Equatable {
  /// Integers.
  case int(ScalarColumn<Int64>)
  /// Bools.
  case bool(ScalarColumn<Bool>)
  /// Doubles.
  case double(ScalarColumn<Double>)
  /// Floats.
  case float(ScalarColumn<Float>)
  /// Dates.
  case date(ScalarColumn<Timestamp>)
  /// Strings (valid UTF-8, exactly the bytes of the `RealmValue.string(_:)` values).
  case string(StringColumn)
  /// Any values (links, collections, mixed, decimals, binaries, …).
  case values([RealmValue])

  /// Number of objects.
  public var count: Int {
    switch self {
    case .int(let c): return c.count
    case .bool(let c): return c.count
    case .double(let c): return c.count
    case .float(let c): return c.count
    case .date(let c): return c.count
    case .string(let c): return c.count
    case .values(let v): return v.count
    }
  }

  /// The value of object `i` as the object-by-object paths see it.
  public func value(at i: Int) -> RealmValue {
    switch self {
    case .int(let c): return c.isNull(i) ? .null : .int(c.values[i])
    case .bool(let c): return c.isNull(i) ? .null : .bool(c.values[i])
    case .double(let c): return c.isNull(i) ? .null : .double(c.values[i])
    case .float(let c): return c.isNull(i) ? .null : .float(c.values[i])
    case .date(let c): return c.isNull(i) ? .null : .date(c.values[i])
    case .string(let c): return c.isNull(i) ? .null : .string(c.string(i))
    case .values(let v): return v[i]
    }
  }

  /// Every value as a `RealmValue`.
  public var realmValues: [RealmValue] {
    if case .values(let v) = self { return v }
    var out: [RealmValue] = []
    out.reserveCapacity(count)
    for i in 0..<count { out.append(value(at: i)) }
    return out
  }

  /// True when object `i` is null.
  public func isNull(_ i: Int) -> Bool {
    switch self {
    case .int(let c): return c.isNull(i)
    case .bool(let c): return c.isNull(i)
    case .double(let c): return c.isNull(i)
    case .float(let c): return c.isNull(i)
    case .date(let c): return c.isNull(i)
    case .string(let c): return c.isNull(i)
    case .values(let v): return v[i].isNull
    }
  }

  /// The values of the objects at `positions` (each below ``count``), in that order, in the
  /// same form.
  public func gathering(_ positions: [Int]) -> ColumnValues {
    switch self {
    case .int(let c): return .int(c.gathering(positions))
    case .bool(let c): return .bool(c.gathering(positions))
    case .double(let c): return .double(c.gathering(positions))
    case .float(let c): return .float(c.gathering(positions))
    case .date(let c): return .date(c.gathering(positions))
    case .string(let c):
      var out = StringColumn()
      out.ends.reserveCapacity(positions.count)
      for i in positions {
        if c.isNull(i) { out.appendNull() } else { c.withBytes(i) { out.append($0) } }
      }
      return .string(out)
    case .values(let v): return .values(positions.map { v[$0] })
    }
  }

  /// `count` nulls.
  public static func nulls(_ count: Int) -> ColumnValues {
    .values([RealmValue](repeating: .null, count: count))
  }

  /// The same value `count` times, typed when it is a plain scalar.
  public static func repeated(_ value: RealmValue, count: Int) -> ColumnValues {
    switch value {
    case .int(let v): return .int(ScalarColumn(values: [Int64](repeating: v, count: count)))
    case .bool(let v): return .bool(ScalarColumn(values: [Bool](repeating: v, count: count)))
    case .double(let v): return .double(ScalarColumn(values: [Double](repeating: v, count: count)))
    case .float(let v): return .float(ScalarColumn(values: [Float](repeating: v, count: count)))
    case .date(let v): return .date(ScalarColumn(values: [Timestamp](repeating: v, count: count)))
    case .string(var s):
      var column = StringColumn()
      s.withUTF8 { utf8 in
        column.bytes.reserveCapacity(utf8.count * count)
        for _ in 0..<count { column.append(utf8) }
      }
      return .string(column)
    default: return .values([RealmValue](repeating: value, count: count))
    }
  }

  /// Typed columns for values that are all of one plain scalar kind (or null); `.values`
  /// otherwise.
  public static func typed(_ values: [RealmValue]) -> ColumnValues {
    guard let first = values.first(where: { !$0.isNull }) else { return .values(values) }
    func build<T>(_ get: (RealmValue) -> T?, zero: T) -> ScalarColumn<T>? {
      var column = ScalarColumn<T>(values: [], nulls: [])
      column.values.reserveCapacity(values.count)
      for v in values {
        if v.isNull {
          column.appendNull(zero)
        } else {
          guard let x = get(v) else { return nil }
          column.append(x)
        }
      }
      return column
    }
    switch first {
    case .int: return build({ if case .int(let x) = $0 { x } else { nil } }, zero: 0).map(ColumnValues.int) ?? .values(values)
    case .bool: return build({ if case .bool(let x) = $0 { x } else { nil } }, zero: false).map(ColumnValues.bool) ?? .values(values)
    case .double:
      return build({ if case .double(let x) = $0 { x } else { nil } }, zero: 0).map(ColumnValues.double) ?? .values(values)
    case .float: return build({ if case .float(let x) = $0 { x } else { nil } }, zero: 0).map(ColumnValues.float) ?? .values(values)
    case .date:
      return build({ if case .date(let x) = $0 { x } else { nil } }, zero: Timestamp(seconds: 0, nanoseconds: 0))
        .map(ColumnValues.date) ?? .values(values)
    case .string:
      var column = StringColumn()
      for v in values {
        switch v {
        case .null: column.appendNull()
        case .string(var s): s.withUTF8 { column.append($0) }
        default: return .values(values)
        }
      }
      return .string(column)
    default: return .values(values)
    }
  }
}

/// Values of a fixed-size type with their nulls.
public struct ScalarColumn<Element: Sendable & Equatable>: Sendable, Equatable {
  /// One value per object (a placeholder where null).
  public var values: [Element]
  /// One flag per object, true where null; empty when no object is null.
  public var nulls: [Bool]

  /// Creates a column; `nulls` empty means no nulls.
  public init(values: [Element] = [], nulls: [Bool] = []) {
    self.values = values
    self.nulls = nulls
  }

  /// Number of objects.
  @inlinable public var count: Int { values.count }
  /// True when some object is null.
  @inlinable public var hasNulls: Bool { !nulls.isEmpty }

  /// True when object `i` is null.
  @inlinable public func isNull(_ i: Int) -> Bool { !nulls.isEmpty && nulls[i] }

  /// Appends a value.
  @inlinable public mutating func append(_ v: Element) {
    if !nulls.isEmpty { nulls.append(false) }
    values.append(v)
  }

  /// Appends a null (`placeholder` stands in the values).
  @inlinable public mutating func appendNull(_ placeholder: Element) {
    if nulls.isEmpty { nulls = [Bool](repeating: false, count: values.count) }
    nulls.append(true)
    values.append(placeholder)
  }

  /// The values (and nulls) at `positions`, in that order.
  public func gathering(_ positions: [Int]) -> ScalarColumn<Element> {
    ScalarColumn(values: positions.map { values[$0] }, nulls: nulls.isEmpty ? [] : positions.map { nulls[$0] })
  }
}

/// Strings as one buffer of UTF-8 bytes and the end offset of each.
public struct StringColumn: Sendable, Equatable {
  /// The strings' bytes, one after the other.
  public var bytes: [UInt8] = []
  /// Where each string ends in ``bytes`` (it starts where the previous one ends).
  public var ends: [Int] = []
  /// One flag per object, true where null (its bytes are empty); empty when none is null.
  public var nulls: [Bool] = []

  /// Creates an empty column.
  public init() {}

  /// Number of objects.
  @inlinable public var count: Int { ends.count }
  /// True when some object is null.
  @inlinable public var hasNulls: Bool { !nulls.isEmpty }
  /// True when object `i` is null.
  @inlinable public func isNull(_ i: Int) -> Bool { !nulls.isEmpty && nulls[i] }

  /// Where string `i` starts in ``bytes``.
  @inlinable public func start(_ i: Int) -> Int { i == 0 ? 0 : ends[i &- 1] }

  /// Length in bytes of string `i` (0 for null).
  @inlinable public func length(_ i: Int) -> Int { ends[i] &- start(i) }

  /// String `i` (empty for null).
  public func string(_ i: Int) -> String {
    bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start(i)..<ends[i]]), as: UTF8.self) }
  }

  /// Appends a string given as valid UTF-8.
  @inlinable public mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) {
    if !nulls.isEmpty { nulls.append(false) }
    bytes.append(contentsOf: utf8)
    ends.append(bytes.count)
  }

  /// Appends bytes that may not be valid UTF-8: invalid sequences become U+FFFD, as
  /// `String(decoding:as:)` makes them (what the object-by-object paths read).
  public mutating func append(unvalidated raw: UnsafeRawBufferPointer) {
    let utf8 = raw.bindMemory(to: UInt8.self)
    if UTF8Check.isValid(utf8) {
      append(utf8)
    } else {
      var repaired = String(decoding: utf8, as: UTF8.self)
      repaired.withUTF8 { append($0) }
    }
  }

  /// Appends a string.
  public mutating func append(_ s: String) {
    var s = s
    s.withUTF8 { append($0) }
  }

  /// Appends a null.
  @inlinable public mutating func appendNull() {
    if nulls.isEmpty { nulls = [Bool](repeating: false, count: ends.count) }
    nulls.append(true)
    ends.append(bytes.count)
  }

  /// Calls `body` with the bytes of string `i`.
  @inlinable public func withBytes<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    let s = start(i)
    let e = ends[i]
    return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[s..<e])) }
  }
}

/// UTF-8 validation with an ASCII fast path.
public enum UTF8Check {
  /// True when `bytes` are well-formed UTF-8 (what `String(decoding:as:)` keeps unchanged).
  public static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var i = 0
    let n = bytes.count
    guard let base = bytes.baseAddress else { return true }
    // Eight ASCII bytes at a time.
    while i &+ 8 <= n {
      let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
      if word & 0x8080_8080_8080_8080 != 0 { break }
      i &+= 8
    }
    while i < n {
      let b = base[i]
      if b < 0x80 {
        i &+= 1
        continue
      }
      // Multi-byte sequences (RFC 3629): no overlong forms, no surrogates, at most U+10FFFF.
      let need: Int
      var low: UInt8 = 0x80
      var high: UInt8 = 0xBF
      switch b {
      case 0xC2...0xDF: need = 1
      case 0xE0:
        need = 2
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: need = 2
      case 0xED:
        need = 2
        high = 0x9F
      case 0xF0:
        need = 3
        low = 0x90
      case 0xF1...0xF3: need = 3
      case 0xF4:
        need = 3
        high = 0x8F
      default: return false
      }
      guard i &+ need < n else { return false }
      let second = base[i &+ 1]
      guard second >= low && second <= high else { return false }
      var k = 2
      while k <= need {
        guard base[i &+ k] & 0xC0 == 0x80 else { return false }
        k &+= 1
      }
      i &+= need &+ 1
    }
    return true
  }
}

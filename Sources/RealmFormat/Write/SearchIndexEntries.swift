import RealmModel
/// The values of one indexed column turned into index data (§4.6, `Mixed::get_index_data`),
/// collected with their object keys in a flat buffer (no allocation per entry).
///
/// While every value is a non-null int (a primary key's column, the common case), only the
/// ints are kept (8 bytes an entry instead of 28); the first other value moves the entries
/// to the general form. Keys are kept as runs (`KeyRuns`).
///
/// The index data do not say a value's type: `0` and `false`, `1` and `true`, a string and a
/// binary of the same bytes, an ObjectId of zeros and the date 0 have the same data and share
/// one entry of the index. Realm keeps the object keys of such an entry in the order of their
/// values (`Mixed::compare`: by type rank, then by value) and finds a value's objects by
/// that order, so the general form keeps each entry's ``IndexValueKind`` too (and a decimal
/// indexed as an int, whose data do not give it back).
public struct SearchIndexEntries: Sendable {
  /// Concatenated index data of all non-null entries (general form).
  var bytes: [UInt8] = []
  /// Start of entry *i* in ``bytes``; -1 for null (general form).
  var starts: [Int] = []
  /// Length of entry *i* (general form).
  var lengths: [Int32] = []
  /// The kind of value of entry *i* (general form).
  var kinds: [IndexValueKind] = []
  /// The decimals indexed as ints (their truncated value), by entry: their data do not give
  /// them back, and their order among equal data needs them.
  var truncatedDecimals: [Int: Decimal128] = [:]
  /// The values, while every entry is a non-null int (``intsOnly``).
  var ints: [Int64] = []
  /// True while the entries are ``ints``.
  private(set) var intsOnly = true
  /// Object key of each entry.
  var keys = KeyRuns()

  /// Creates an empty collection.
  public init() {}

  /// Number of entries.
  public var count: Int { keys.count }

  /// Object key of entry `i`.
  func key(_ i: Int) -> Int64 { keys[i] }

  /// Length of the index data of entry `i`.
  func length(_ i: Int) -> Int { intsOnly ? 8 : Int(lengths[i]) }

  /// Moves the entries to the general form.
  mutating func generalize() {
    guard intsOnly else { return }
    intsOnly = false
    bytes.reserveCapacity(ints.count * 8)
    starts.reserveCapacity(ints.count)
    lengths.reserveCapacity(ints.count)
    kinds = Array(repeating: .number, count: ints.count)
    for i in ints {
      starts.append(bytes.count)
      lengths.append(8)
      appendInt(i)
    }
    ints = []
  }

  /// Adds the index data of `value` for object `key`. `tableKeys` gives table keys for
  /// links in Mixed values.
  public mutating func append(
    _ value: RealmValue, key: Int64, tableKeys: [String: Int64] = [:]
  ) throws(FormatError) {
    if intsOnly {
      if case .int(let i) = value {
        ints.append(i)
        keys.append(key)
        return
      }
      generalize()
    }
    let start = bytes.count
    let kind: IndexValueKind
    switch value {
    case .null:
      keys.append(key)
      starts.append(-1)
      lengths.append(0)
      kinds.append(.null)
      return
    case .int(let i):
      appendInt(i)
      kind = .number
    case .bool(let b):
      appendInt(b ? 1 : 0)
      kind = .bool
    case .float(let f):
      if let i = Self.exactInt32(Double(f)) {
        appendInt(i)
        kind = .number
      } else {
        NodeEncoder.appendLittleEndian(&bytes, UInt64(f.bitPattern), 4)
        kind = .float
      }
    case .double(let d):
      if let i = Self.exactInt32(d) {
        appendInt(i)
        kind = .number
      } else {
        NodeEncoder.appendLittleEndian(&bytes, d.bitPattern, 8)
        kind = .double
      }
    case .string(let s):
      bytes.append(contentsOf: s.utf8)
      kind = .string
    case .data(let d):
      bytes.append(contentsOf: d)
      kind = .binary
    case .date(let t):
      appendInt(t.seconds)
      NodeEncoder.appendLittleEndian(&bytes, UInt64(UInt32(bitPattern: t.nanoseconds)), 4)
      kind = .timestamp
    case .objectId(let o):
      bytes.append(contentsOf: o.bytes)
      kind = .objectId
    case .uuid(let u):
      bytes.append(contentsOf: u.bytes)
      kind = .uuid
    case .decimal128(let d):
      if let i = d.truncatedInt64 {
        appendInt(i)
        truncatedDecimals[count] = d
        kind = .number
      } else {
        NodeEncoder.appendLittleEndian(&bytes, d.low, 8)
        NodeEncoder.appendLittleEndian(&bytes, d.high, 8)
        kind = .decimal
      }
    case .link(let link):
      guard let tableKey = tableKeys[link.className] else {
        throw FormatError.corrupt("an indexed value links to class '\(link.className)', which is not in the schema")
      }
      NodeEncoder.appendLittleEndian(&bytes, UInt64(truncatingIfNeeded: tableKey), 4)
      appendInt(link.key)
      kind = .typedLink
    case .list:
      bytes.append(contentsOf: "__List__".utf8)
      kind = .list
    case .dictionary:
      bytes.append(contentsOf: "__Dictionary__".utf8)
      kind = .dictionary
    case .set, .embedded:
      throw FormatError.corrupt("\(TypedLeafEncoder.describe(value)) cannot be indexed")
    }
    let length = bytes.count - start
    guard length <= StringLeafEncoder.maxValueLength + 1 else {
      bytes.removeSubrange(start...)
      throw FormatError.limit("an indexed value of \(length) bytes is longer than Realm's limit")
    }
    keys.append(key)
    starts.append(start)
    lengths.append(Int32(length))
    kinds.append(kind)
  }

  /// `d` as an integer when it is one in the int32 range (floats and doubles equal to an
  /// int32 are indexed as that int). Avoids libm: the conversion truncates, then checks.
  static func exactInt32(_ d: Double) -> Int64? {
    guard d >= -2_147_483_648.0 && d <= 2_147_483_647.0 else { return nil }
    let i = Int64(d)
    return Double(i) == d ? i : nil
  }

  private mutating func appendInt(_ i: Int64) {
    NodeEncoder.appendLittleEndian(&bytes, UInt64(bitPattern: i), 8)
  }

  /// True when entry `i` is null.
  func isNull(_ i: Int) -> Bool { !intsOnly && starts[i] < 0 }

  /// The index data of entry `i` (empty for null).
  func data(_ i: Int) -> ArraySlice<UInt8> {
    if intsOnly {
      var out: [UInt8] = []
      NodeEncoder.appendLittleEndian(&out, UInt64(bitPattern: ints[i]), 8)
      return out[...]
    }
    let s = starts[i]
    return s < 0 ? bytes[0..<0] : bytes[s..<(s + Int(lengths[i]))]
  }

  /// True when entries `a` and `b` have the same index data (both null counts as the same).
  func sameData(_ a: Int, _ b: Int) -> Bool {
    if intsOnly { return ints[a] == ints[b] }
    return isNull(a) == isNull(b) && data(a) == data(b)
  }

  /// The order of the index data of entries `a` and `b`, byte by byte (-1, 0, 1): unsigned,
  /// or as signed `char` with `unsigned: false` (formats up to 23).
  func compareData(_ a: Int, _ b: Int, unsigned: Bool) -> Int {
    if intsOnly {
      // Little-endian bytes compared in order: the byte-swapped values compared unsigned.
      let x = UInt64(bitPattern: ints[a]).byteSwapped
      let y = UInt64(bitPattern: ints[b]).byteSwapped
      return x == y ? 0 : x < y ? -1 : 1
    }
    return ByteOrder.compare(data(a), data(b), unsigned: unsigned)
  }

  /// The kind of value of entry `i`.
  func kind(_ i: Int) -> IndexValueKind { intsOnly ? .number : kinds[i] }

  /// The order of the values of entries `a` and `b` whose data are the same, or share their
  /// first 204 bytes (-1, 0, 1), as Realm orders the object keys of one entry of a file of
  /// `format` (`Mixed::compare`, `compare_signed` before format 24): by the rank of their
  /// type, then numbers numerically, strings by bytes (signed `char` before format 24),
  /// everything else by its data.
  func compareValues(_ a: Int, _ b: Int, format: WritableFileFormat) -> Int {
    let ka = kind(a)
    let kb = kind(b)
    let ra = ka.rank(format)
    let rb = kb.rank(format)
    if ra != rb { return ra < rb ? -1 : 1 }
    if ka.isNumber { return SetOrdering.compare(number(a), number(b)) }
    return compareData(a, b, unsigned: ka == .string && kb == .string ? format.comparesBytesUnsigned : true)
  }

  /// The number entry `i` holds (its kind ``IndexValueKind/isNumber``).
  func number(_ i: Int) -> RealmValue {
    let d = data(i)
    func word(_ at: Int, _ n: Int) -> UInt64 {
      var v: UInt64 = 0
      for j in 0..<n { v |= UInt64(d[d.startIndex + at + j]) << UInt64(8 * j) }
      return v
    }
    switch kind(i) {
    case .float: return .float(Float(bitPattern: UInt32(truncatingIfNeeded: word(0, 4))))
    case .double: return .double(Double(bitPattern: word(0, 8)))
    case .decimal: return .decimal128(Decimal128(low: word(0, 8), high: word(8, 8)))
    default:
      if !intsOnly, let decimal = truncatedDecimals[i] { return .decimal128(decimal) }
      return .int(Int64(bitPattern: word(0, 8)))
    }
  }

  /// The 32-bit key of entry `i` at byte `offset` (`create_key`, §4.6): null and
  /// offsets past the end give 0; a tail of at most 3 bytes is followed by 'X'; the 4 bytes
  /// form a big-endian signed int32.
  func chunkKey(_ i: Int, at offset: Int) -> Int32 {
    if intsOnly {
      // The 8 bytes little-endian: each half's bytes read big-endian, then the 'X' of the
      // empty tail.
      let v = UInt64(bitPattern: ints[i])
      switch offset {
      case 0: return Int32(bitPattern: UInt32(truncatingIfNeeded: v).byteSwapped)
      case 4: return Int32(bitPattern: UInt32(truncatingIfNeeded: v >> 32).byteSwapped)
      case 8: return Int32(bitPattern: 0x5800_0000)
      default: return 0
      }
    }
    let s = starts[i]
    if s < 0 { return 0 }
    let length = Int(lengths[i])
    if offset > length { return 0 }
    let tail = length - offset
    var k: UInt32 = 0
    if tail <= 3 {
      for j in 0..<tail { k |= UInt32(bytes[s + offset + j]) << UInt32(24 - 8 * j) }
      k |= UInt32(0x58) << UInt32(24 - 8 * tail)
    } else {
      for j in 0..<4 { k |= UInt32(bytes[s + offset + j]) << UInt32(24 - 8 * j) }
    }
    return Int32(bitPattern: k)
  }
}

/// What kind of value an index entry holds, for Realm's order of the values that share
/// their index data (`Mixed::compare`: the type's rank first).
enum IndexValueKind: UInt8, Sendable {
  case null
  case bool
  /// An int, or a float, double or decimal indexed as an int (one that equals an int32, or
  /// for a decimal truncates to an int64).
  case number
  /// A float indexed by its 4 bytes.
  case float
  /// A double indexed by its 8 bytes.
  case double
  /// A decimal indexed by its 16 bytes.
  case decimal
  case string
  case binary
  case timestamp
  case objectId
  case uuid
  case typedLink
  case list
  case dictionary

  /// True for the kinds that compare numerically with each other.
  var isNumber: Bool { self == .number || self == .float || self == .double || self == .decimal }

  /// The rank of the type (`sorting_rank`): Realm Core 14 (format 24) ranks binaries after
  /// strings; Core 12 and 13 give them the rank of strings (and compare the two by bytes).
  func rank(_ format: WritableFileFormat) -> Int {
    switch self {
    case .null: return -1
    case .bool: return 0
    case .number, .float, .double, .decimal: return 1
    case .string: return 2
    case .binary: return format >= .v24 ? 3 : 2
    case .timestamp: return 4
    case .objectId: return 5
    case .uuid: return 6
    case .typedLink: return 7
    case .list: return 9
    case .dictionary: return 11
    }
  }
}

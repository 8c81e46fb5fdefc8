import RealmModel

/// The fast path of ``CanonicalDecoder`` for the lines most inputs consist of: a flat object,
/// `$class` first, then `$key` and every property once, with values that are ints, bools,
/// doubles written without an exponent, strings without escapes, `{"$date":"…"}`, links
/// `{"$ref":"Class","$key":n}` or null.
/// Such a line is decoded straight from its bytes, without a ``JSONValue`` tree and without
/// looking property names up by `String`. Any other line (another shape, another type, a
/// missing or repeated property, anything the full path would refuse) is left to
/// ``CanonicalDecoder/decodeLine(_:line:)``, which gives the same object or the error.
struct SimpleLineLayout: Sendable {
  /// How the fast path reads a property's value; `other` sends the line to the full path.
  enum Kind: Sendable {
    case int, bool, double, string, date, other
    /// A single link to a top-level class: its ``Class/linkTargets`` entry.
    case link
  }

  /// One top-level class.
  struct Class: Sendable {
    var name: String
    var nameBytes: [UInt8]
    /// Per property: its name's bytes and how its value is read.
    var propertyNames: [[UInt8]]
    var kinds: [Kind]
    var optional: [Bool]
    /// Per property of kind `link`: the target class's name and its bytes.
    var linkTargets: [(name: String, bytes: [UInt8])?]
  }

  /// The top-level classes of the schema with at most 64 properties (a line's properties
  /// are tracked in one 64-bit mask).
  var classes: [Class] = []

  init(schema: Schema) {
    for cls in schema.classes where !cls.isEmbedded && cls.properties.count <= 64 {
      classes.append(
        Class(
          name: cls.name, nameBytes: Array(cls.name.utf8),
          propertyNames: cls.properties.map { Array($0.name.utf8) },
          kinds: cls.properties.map { p in
            guard p.collection == .single else { return .other }
            switch p.type {
            case .int: return .int
            case .bool: return .bool
            case .double: return .double
            case .string: return .string
            case .date: return .date
            case .object: return Self.linkTarget(p, in: schema) == nil ? .other : .link
            default: return .other
            }
          },
          optional: cls.properties.map(\.isOptional),
          linkTargets: cls.properties.map { p in
            guard p.collection == .single, let target = Self.linkTarget(p, in: schema) else { return nil }
            return (target, Array(target.utf8))
          }))
    }
  }

  /// The target of a link property when it is a top-level class (links to it are written
  /// `{"$ref":…}`; embedded objects are inline, for the full path).
  private static func linkTarget(_ p: Property, in schema: Schema) -> String? {
    guard p.type == .object, let target = p.objectType, let cls = schema.objectSchema(named: target),
      !cls.isEmbedded
    else { return nil }
    return target
  }
}

extension CanonicalDecoder {
  /// Decodes `bytes` (one line without its line break) when it has the simple shape (see
  /// `SimpleLineLayout`); nil otherwise, and then ``decodeLine(_:line:)`` must be used: the
  /// fast path never reports errors. `lastClass` carries the class of the previous line
  /// between calls, so that consecutive objects of one class share its name.
  public func decodeSimpleLine(_ bytes: UnsafeBufferPointer<UInt8>, lastClass: inout Int) -> DecodedObject? {
    var scanner = SimpleScanner(bytes)
    guard scanner.skip(UInt8(ascii: "{")), scanner.member("$class") else { return nil }
    guard let className = scanner.plainString() else { return nil }
    let layout = simpleLayout
    var c = lastClass
    if c < 0 || c >= layout.classes.count || !scanner.equal(className, layout.classes[c].nameBytes) {
      guard let found = layout.classes.firstIndex(where: { scanner.equal(className, $0.nameBytes) }) else { return nil }
      c = found
      lastClass = c
    }
    let cls = layout.classes[c]
    let count = cls.kinds.count
    var key: Int64?
    var values = [RealmValue](repeating: .null, count: count)
    var seen: UInt64 = 0
    var next = 0
    while scanner.skip(UInt8(ascii: ",")) {
      guard let name = scanner.plainString(), scanner.skip(UInt8(ascii: ":")) else { return nil }
      if key == nil && seen == 0 && scanner.equal(name, SimpleScanner.keyName) {
        guard let k = scanner.integer() else { return nil }
        key = k
        continue
      }
      // Members usually come in column order: try the next column first.
      var i = next
      if i >= count || !scanner.equal(name, cls.propertyNames[i]) {
        guard let p = cls.propertyNames.firstIndex(where: { scanner.equal(name, $0) }) else { return nil }
        i = p
      }
      let bit: UInt64 = 1 << UInt64(i)
      guard seen & bit == 0 else { return nil }
      seen |= bit
      next = i + 1
      if scanner.literal("null") {
        guard cls.optional[i] else { return nil }
        continue
      }
      switch cls.kinds[i] {
      case .int:
        guard let v = scanner.integer() else { return nil }
        values[i] = .int(v)
      case .bool:
        if scanner.literal("true") {
          values[i] = .bool(true)
        } else if scanner.literal("false") {
          values[i] = .bool(false)
        } else {
          return nil
        }
      case .double:
        guard let d = scanner.double() else { return nil }
        values[i] = .double(d)
      case .string:
        guard let s = scanner.plainString(), let text = scanner.string(s) else { return nil }
        values[i] = .string(text)
      case .date:
        guard scanner.skip(UInt8(ascii: "{")), scanner.member("$date"), let s = scanner.plainString(),
          scanner.skip(UInt8(ascii: "}")), let t = Timestamp(utf8: scanner.slice(s))
        else { return nil }
        values[i] = .date(t)
      case .link:
        // Exactly `{"$ref":"<target>","$key":n}`; anything else is the full path's.
        guard let target = cls.linkTargets[i], scanner.skip(UInt8(ascii: "{")), scanner.member("$ref"),
          let name = scanner.plainString(), scanner.equal(name, target.bytes), scanner.skip(UInt8(ascii: ",")),
          scanner.member("$key"), let k = scanner.integer(), scanner.skip(UInt8(ascii: "}"))
        else { return nil }
        values[i] = .link(ObjectLink(className: target.name, key: k))
      case .other:
        return nil
      }
    }
    guard scanner.skip(UInt8(ascii: "}")), scanner.atEnd else { return nil }
    // Every property once (a missing one is the full path's business: an error or a default).
    guard seen == (count == 64 ? ~0 : (1 << UInt64(count)) &- 1) else { return nil }
    return DecodedObject(className: cls.name, key: key, values: values)
  }
}

/// Reads the tokens of a simple line; every method skips white space first and returns
/// nil or false, consuming nothing useful, when the token is not the expected one.
struct SimpleScanner {
  static let keyName = Array("$key".utf8)
  /// Exact powers of ten as doubles.
  static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { a, _ in a * 10 } }

  let bytes: UnsafeBufferPointer<UInt8>
  var i = 0

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  var atEnd: Bool {
    mutating get {
      skipSpace()
      return i == bytes.count
    }
  }

  @inline(__always)
  mutating func skipSpace() {
    while i < bytes.count {
      let c = bytes[i]
      guard c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A else { return }
      i += 1
    }
  }

  /// Consumes `byte` if it comes next.
  @inline(__always)
  mutating func skip(_ byte: UInt8) -> Bool {
    skipSpace()
    guard i < bytes.count, bytes[i] == byte else { return false }
    i += 1
    return true
  }

  /// Consumes `"name":` for an ASCII name without escapes.
  mutating func member(_ name: StaticString) -> Bool {
    guard let s = plainString(), name.withUTF8Buffer({ equal(s, $0) }) else { return false }
    return skip(UInt8(ascii: ":"))
  }

  /// Consumes a literal (`true`, `false`, `null`) if it comes next.
  mutating func literal(_ word: StaticString) -> Bool {
    skipSpace()
    let n = word.utf8CodeUnitCount
    guard bytes.count - i >= n, word.withUTF8Buffer({ equal(i..<(i + n), $0) }) else { return false }
    i += n
    return true
  }

  /// A string without escapes or control characters: the range of its bytes (quotes excluded).
  mutating func plainString() -> Range<Int>? {
    guard skip(UInt8(ascii: "\"")) else { return nil }
    let start = i
    while i < bytes.count {
      let c = bytes[i]
      if c == UInt8(ascii: "\"") {
        i += 1
        return start..<(i - 1)
      }
      if c == UInt8(ascii: "\\") || c < 0x20 { return nil }
      i += 1
    }
    return nil
  }

  func slice(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[r]) }

  func equal(_ r: Range<Int>, _ other: [UInt8]) -> Bool {
    other.withUnsafeBufferPointer { equal(r, $0) }
  }

  func equal(_ r: Range<Int>, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
    guard r.count == other.count else { return false }
    for k in 0..<r.count where bytes[r.lowerBound + k] != other[k] { return false }
    return true
  }

  /// The text of a string's bytes as the JSON parser makes it: ASCII as is, other text only
  /// when it is valid UTF-8 (nil otherwise: the full path reports it).
  func string(_ r: Range<Int>) -> String? {
    let s = slice(r)
    for b in s where b >= 0x80 { return String(validating: s, as: UTF8.self) }
    return String(decoding: s, as: UTF8.self)
  }

  /// Digits `-?(0|[1-9][0-9]*)` at most 18 of them (so no overflow), the count of digits and
  /// the sign; nil when there are none or a leading zero is followed by a digit.
  private mutating func digits() -> (value: UInt64, count: Int, negative: Bool)? {
    skipSpace()
    var negative = false
    if i < bytes.count && bytes[i] == UInt8(ascii: "-") {
      negative = true
      i += 1
    }
    var value: UInt64 = 0
    let start = i
    while i < bytes.count {
      let d = bytes[i] &- 0x30
      guard d < 10 else { break }
      value = value &* 10 &+ UInt64(d)
      i += 1
    }
    let n = i - start
    guard n > 0, n <= 18, !(n > 1 && bytes[start] == 0x30) else { return nil }
    return (value, n, negative)
  }

  /// The next byte, or 0 at the end.
  private var peek: UInt8 { i < bytes.count ? bytes[i] : 0 }

  /// A JSON integer (no fraction, no exponent) of at most 18 digits.
  mutating func integer() -> Int64? {
    guard let (v, _, negative) = digits() else { return nil }
    let c = peek
    guard c != UInt8(ascii: "."), c != UInt8(ascii: "e"), c != UInt8(ascii: "E") else { return nil }
    return negative ? -Int64(v) : Int64(v)
  }

  /// A JSON number without an exponent, as the parser and the decoder make it a double: an
  /// integer converted, a decimal correctly rounded. Decimals of at most 15 significant
  /// digits and 22 decimals are exact as m / 10^k (both exact doubles, one rounding), the
  /// correctly rounded value; others are left to the full path.
  mutating func double() -> Double? {
    guard let (whole, n, negative) = digits() else { return nil }
    var c = peek
    if c != UInt8(ascii: ".") {
      guard c != UInt8(ascii: "e"), c != UInt8(ascii: "E") else { return nil }
      return Double(negative ? -Int64(whole) : Int64(whole))
    }
    i += 1
    var m = whole
    var significant = whole == 0 ? 0 : n
    var decimals = 0
    while i < bytes.count {
      let d = bytes[i] &- 0x30
      guard d < 10 else { break }
      m = m &* 10 &+ UInt64(d)
      if m != 0 { significant += 1 }
      decimals += 1
      guard significant <= 15, decimals <= 22 else { return nil }
      i += 1
    }
    c = peek
    guard decimals > 0, c != UInt8(ascii: "e"), c != UInt8(ascii: "E") else { return nil }
    let v = Double(m) / SimpleScanner.powersOfTen[decimals]
    return negative ? -v : v
  }
}

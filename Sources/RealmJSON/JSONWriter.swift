/// Appends JSON text to a byte buffer, fast and without Foundation.
///
/// Two layers: `write…` methods append one token (a string, a number, a literal) exactly as
/// given; the structural methods (`beginObject`, `key`, `beginArray`, …) add the commas and,
/// when `indent > 0`, the line breaks and indentation of a pretty document. Values written
/// through the structural layer must use `value(_:)`-style calls, which insert separators.
public struct JSONWriter: Sendable {
  /// The JSON text written so far (UTF-8).
  public var buffer: [UInt8]
  /// Spaces per nesting level; 0 writes compact JSON.
  public let indent: Int

  /// One flag per open container: true until its first element is written.
  private var isFirst: [Bool] = []
  /// True right after `key(_:)`: the next value follows the colon, no separator.
  private var afterKey = false

  /// Creates a writer; `indent` > 0 pretty-prints with that many spaces per level.
  public init(indent: Int = 0, capacity: Int = 1 << 16) {
    self.indent = indent
    buffer = []
    buffer.reserveCapacity(capacity)
  }

  /// Empties the buffer, keeping its capacity and the writer's settings.
  public mutating func reset() {
    buffer.removeAll(keepingCapacity: true)
    isFirst.removeAll(keepingCapacity: true)
    afterKey = false
  }

  /// Current nesting depth of the structural layer.
  public var depth: Int { isFirst.count }

  // MARK: Structural layer

  /// Writes the separator needed before a value at the current position.
  @inline(__always)
  public mutating func separate() {
    if afterKey {
      afterKey = false
      return
    }
    guard let last = isFirst.last else { return }
    if last {
      isFirst[isFirst.count - 1] = false
    } else {
      buffer.append(UInt8(ascii: ","))
    }
    if indent > 0 { newline() }
  }

  private mutating func newline() {
    buffer.append(0x0A)
    let n = isFirst.count * indent
    if n > 0 { buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: n)) }
  }

  /// Opens an object (as a value at the current position).
  public mutating func beginObject() {
    separate()
    buffer.append(UInt8(ascii: "{"))
    isFirst.append(true)
  }

  /// Closes the innermost object.
  public mutating func endObject() { close(UInt8(ascii: "}")) }

  /// Opens an array (as a value at the current position).
  public mutating func beginArray() {
    separate()
    buffer.append(UInt8(ascii: "["))
    isFirst.append(true)
  }

  /// Closes the innermost array.
  public mutating func endArray() { close(UInt8(ascii: "]")) }

  private mutating func close(_ bracket: UInt8) {
    let wasEmpty = isFirst.popLast() ?? true
    if indent > 0 && !wasEmpty { newline() }
    buffer.append(bracket)
  }

  /// Writes a member name and its colon; the next value call writes the member's value.
  public mutating func key(_ name: String) {
    separate()
    writeString(name)
    buffer.append(UInt8(ascii: ":"))
    if indent > 0 { buffer.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  /// Writes a member name given as ASCII without characters that need escaping.
  public mutating func key(raw name: StaticString) {
    separate()
    buffer.append(UInt8(ascii: "\""))
    writeRaw(name)
    buffer.append(UInt8(ascii: "\""))
    buffer.append(UInt8(ascii: ":"))
    if indent > 0 { buffer.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  /// Writes a member name already encoded as `"name":` (see ``encodedKey(_:)``); compact
  /// output only (no space after the colon).
  @inline(__always)
  public mutating func key(encoded: [UInt8]) {
    separate()
    buffer.append(contentsOf: encoded)
    if indent > 0 { buffer.append(UInt8(ascii: " ")) }
    afterKey = true
  }

  /// The bytes of `"name":` with the name escaped, for ``key(encoded:)``.
  public static func encodedKey(_ name: String) -> [UInt8] {
    var w = JSONWriter(indent: 0, capacity: name.utf8.count + 3)
    w.writeString(name)
    w.buffer.append(UInt8(ascii: ":"))
    return w.buffer
  }

  /// A string value.
  public mutating func value(_ s: String) {
    separate()
    writeString(s)
  }
  /// An integer value.
  public mutating func value(_ v: Int64) {
    separate()
    writeInt(v)
  }
  /// A boolean value.
  public mutating func value(_ v: Bool) {
    separate()
    writeRaw(v ? "true" : "false")
  }
  /// `null`.
  public mutating func nullValue() {
    separate()
    writeRaw("null")
  }
  /// A finite double as its shortest round-trip decimal (see ``writeDouble(_:)``).
  public mutating func value(_ v: Double) {
    separate()
    writeDouble(v)
  }
  /// A finite float as its shortest round-trip decimal (see ``writeFloat(_:)``).
  public mutating func value(_ v: Float) {
    separate()
    writeFloat(v)
  }
  /// A value given as ready-made JSON text (no validation).
  public mutating func rawValue(_ json: some Sequence<UInt8>) {
    separate()
    buffer.append(contentsOf: json)
  }

  /// Writes a whole parsed document through the structural layer.
  public mutating func value(_ v: JSONValue) {
    switch v {
    case .null: nullValue()
    case .bool(let b): value(b)
    case .int(let i): value(i)
    case .double(let d):
      if d.isFinite { value(d) } else { nullValue() }
    case .string(let s): value(s)
    case .array(let items):
      beginArray()
      for item in items { value(item) }
      endArray()
    case .object(let members):
      beginObject()
      for m in members {
        key(m.key)
        value(m.value)
      }
      endObject()
    }
  }

  // MARK: Token layer

  /// Appends ASCII text as is.
  @inline(__always)
  public mutating func writeRaw(_ s: StaticString) {
    s.withUTF8Buffer { buffer.append(contentsOf: $0) }
  }

  /// Appends bytes as is.
  @inline(__always)
  public mutating func writeRaw(bytes: some Sequence<UInt8>) {
    buffer.append(contentsOf: bytes)
  }

  /// Appends a quoted string with RFC 8259 escaping: `"` and `\` escaped, control characters
  /// as `\b \f \n \r \t` or `\u00XX`, everything else (non-ASCII too) as raw UTF-8.
  public mutating func writeString(_ s: String) {
    buffer.append(UInt8(ascii: "\""))
    var s = s
    s.withUTF8 { utf8 in
      var runStart = 0
      for i in 0..<utf8.count {
        let c = utf8[i]
        if c >= 0x20 && c != 0x22 && c != 0x5C { continue }
        if runStart < i {
          buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
        }
        runStart = i + 1
        buffer.append(UInt8(ascii: "\\"))
        switch c {
        case 0x22: buffer.append(0x22)
        case 0x5C: buffer.append(0x5C)
        case 0x08: buffer.append(UInt8(ascii: "b"))
        case 0x0C: buffer.append(UInt8(ascii: "f"))
        case 0x0A: buffer.append(UInt8(ascii: "n"))
        case 0x0D: buffer.append(UInt8(ascii: "r"))
        case 0x09: buffer.append(UInt8(ascii: "t"))
        default:
          buffer.append(contentsOf: [
            UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
            hexDigit(c >> 4), hexDigit(c & 0xF),
          ])
        }
      }
      if runStart < utf8.count {
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
      }
    }
    buffer.append(UInt8(ascii: "\""))
  }

  /// Appends a signed integer, exact over the whole 64-bit range.
  public mutating func writeInt(_ v: Int64) {
    if v < 0 { buffer.append(UInt8(ascii: "-")) }
    writeUnsigned(v.magnitude)
  }

  /// Appends an unsigned integer in decimal.
  public mutating func writeUnsigned(_ v: UInt64) {
    if v < 10 {
      buffer.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v))
      return
    }
    var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes >= 20 digits
    var n = v
    var count = 0
    withUnsafeMutableBytes(of: &digits) { raw in
      while n > 0 {
        raw[23 - count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n % 10)
        n /= 10
        count += 1
      }
      // A typed buffer: appending it is one copy.
      buffer.append(contentsOf: UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + (24 - count), count: count))
    }
  }

  /// Appends a finite double as the shortest decimal that reads back as the same double, in the
  /// style of C++ `std::to_chars` (what Realm writes): fixed or exponent form, whichever is
  /// shorter, e.g. `0.1`, `1e-07`, `1e+21`, `9007199254740992`; negative zero as `-0.0`.
  /// Non-finite values are not numbers in JSON: the caller must not pass them (writes `null`).
  public mutating func writeDouble(_ v: Double) {
    ShortestDecimal.append(v, to: &buffer)
  }

  /// Appends a finite float as the shortest decimal that reads back as the same float
  /// (see ``writeDouble(_:)``).
  public mutating func writeFloat(_ v: Float) {
    ShortestDecimal.append(v, to: &buffer)
  }
}

@inline(__always)
package func hexDigit(_ v: UInt8) -> UInt8 {
  v < 10 ? UInt8(ascii: "0") &+ v : UInt8(ascii: "a") &+ (v &- 10)
}

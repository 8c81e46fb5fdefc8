import RealmFormat
import RealmModel
import RealmJSON

/// Encodes the dump lines of objects given column by column (``ObjectBatch``), straight from
/// the typed columns to bytes: no ``RealmValue`` and no `String` per value for ints, bools,
/// doubles, dates and strings, and the fixed text of each line (`{"$class":"Row","$key":` and
/// every `,"name":`) encoded once per class. Values of any other kind (and floats, mixed
/// properties, doubles that are not finite, dates outside years 1-9999) go through
/// ``CanonicalEncoder/writeValue(_:inMixed:to:)``, so every line is byte for byte what
/// ``CanonicalEncoder/appendLine(_:key:values:to:)`` writes for the same object.
struct JSONLinesBatchEncoder {
  let encoder: CanonicalEncoder
  /// `{"$class":<name>,"$key":`.
  private let prefix: [UInt8]
  /// Per property: `,"name":`, one after the other, and where each ends.
  private let names: [UInt8]
  private let nameEnds: [Int]
  /// Per property: true when it is mixed (its values always take the general path).
  private let mixed: [Bool]
  /// Per single link property: its target class and `{"$ref":<target>,"$key":`.
  private let linkTargets: [String?]
  private let linkPrefixes: [[UInt8]]

  init(encoder: CanonicalEncoder, objectSchema: ObjectSchema) {
    self.encoder = encoder
    var w = JSONWriter(indent: 0, capacity: 64)
    w.buffer.append(contentsOf: Array("{\"$class\":".utf8))
    w.writeString(objectSchema.name)
    w.buffer.append(contentsOf: Array(",\"$key\":".utf8))
    prefix = w.buffer
    var names: [UInt8] = []
    var nameEnds: [Int] = []
    for property in objectSchema.properties {
      names.append(UInt8(ascii: ","))
      names.append(contentsOf: JSONWriter.encodedKey(property.name))
      nameEnds.append(names.count)
    }
    self.names = names
    self.nameEnds = nameEnds
    mixed = objectSchema.properties.map { $0.type == .mixed }
    linkTargets = objectSchema.properties.map { p in
      p.type == .object && p.collection == .single ? p.objectType : nil
    }
    linkPrefixes = linkTargets.map { target in
      guard let target else { return [] }
      var w = JSONWriter(indent: 0, capacity: 32)
      w.buffer.append(contentsOf: Array("{\"$ref\":".utf8))
      w.writeString(target)
      w.buffer.append(contentsOf: Array(",\"$key\":".utf8))
      return w.buffer
    }
  }

  /// How one column of a batch is encoded.
  private enum Kind: UInt8 {
    /// `link`: a single link to a top-level class (words: the key).
    case int, bool, double, date, string, link, other
  }

  /// One batch's values, flattened (object `i` of column `c` at `c * count + i`) so that
  /// the line loop reads them through pointers, with no array bookkeeping and no reference
  /// counting per value. Kept across batches to reuse the memory.
  struct Scratch {
    /// Ints, doubles' bits, bools (0/1), dates' seconds, strings' end offsets in `text`.
    var words: [UInt64] = []
    /// Dates' nanoseconds, strings' start offsets in `text`.
    var aux: [Int] = []
    /// True where null.
    var nulls: [Bool] = []
    /// The bytes of every string of the batch.
    var text: [UInt8] = []
    /// For values that take the general path.
    var writer = JSONWriter(indent: 0, capacity: 256)
  }

  /// Appends the lines of every object of `batch` to `out`.
  func append(_ batch: ObjectBatch, to out: inout ByteOutput, scratch: inout Scratch) {
    let width = min(nameEnds.count, batch.columns.count)
    let n = batch.count
    var kinds = [Kind](repeating: .other, count: width)
    scratch.words.removeAll(keepingCapacity: true)
    scratch.words.append(contentsOf: repeatElement(0, count: width * n))
    scratch.aux.removeAll(keepingCapacity: true)
    scratch.aux.append(contentsOf: repeatElement(0, count: width * n))
    scratch.nulls.removeAll(keepingCapacity: true)
    scratch.nulls.append(contentsOf: repeatElement(false, count: width * n))
    scratch.text.removeAll(keepingCapacity: true)
    for c in 0..<width {
      guard !mixed[c], let column = batch.columns[c], column.count == n else { continue }
      let at = c * n
      func copyNulls(_ flags: [Bool]) {
        if !flags.isEmpty { scratch.nulls.replaceSubrange(at..<(at + n), with: flags) }
      }
      switch column {
      case .int(let v):
        kinds[c] = .int
        for i in 0..<n { scratch.words[at + i] = UInt64(bitPattern: v.values[i]) }
        copyNulls(v.nulls)
      case .bool(let v):
        kinds[c] = .bool
        for i in 0..<n { scratch.words[at + i] = v.values[i] ? 1 : 0 }
        copyNulls(v.nulls)
      case .double(let v):
        kinds[c] = .double
        for i in 0..<n { scratch.words[at + i] = v.values[i].bitPattern }
        copyNulls(v.nulls)
      case .date(let v):
        kinds[c] = .date
        for i in 0..<n {
          scratch.words[at + i] = UInt64(bitPattern: v.values[i].seconds)
          scratch.aux[at + i] = Int(v.values[i].nanoseconds)
        }
        copyNulls(v.nulls)
      case .string(let v):
        kinds[c] = .string
        let base = scratch.text.count
        scratch.text.append(contentsOf: v.bytes)
        for i in 0..<n {
          scratch.aux[at + i] = base + v.start(i)
          scratch.words[at + i] = UInt64(base + v.ends[i])
        }
        copyNulls(v.nulls)
      case .values(let values):
        // Single links to a top-level class: the key, written after the class's prefix.
        guard let target = linkTargets[c] else { break }
        var plain = true
        for i in 0..<n {
          switch values[i] {
          case .link(let l) where l.className == target: scratch.words[at + i] = UInt64(bitPattern: l.key)
          case .null: scratch.nulls[at + i] = true
          default: plain = false
          }
          if !plain { break }
        }
        if plain { kinds[c] = .link }
      case .float: break
      }
    }
    scratch.words.withUnsafeBufferPointer { words in
      scratch.aux.withUnsafeBufferPointer { aux in
        scratch.nulls.withUnsafeBufferPointer { nulls in
          scratch.text.withUnsafeBufferPointer { text in
            prefix.withUnsafeBufferPointer { prefix in
              names.withUnsafeBufferPointer { names in
                for i in 0..<n {
                  out.append(prefix)
                  out.appendInt(batch.keys[i])
                  for c in 0..<width {
                    out.append(
                      UnsafeBufferPointer(
                        rebasing: names[(c == 0 ? 0 : nameEnds[c &- 1])..<nameEnds[c]]))
                    let kind = kinds[c]
                    let at = c &* n &+ i
                    if kind != .other && nulls[at] {
                      out.append("null")
                      continue
                    }
                    switch kind {
                    case .int: out.appendInt(Int64(bitPattern: words[at]))
                    case .bool: out.append(words[at] != 0 ? "true" : "false")
                    case .double:
                      let d = Double(bitPattern: words[at])
                      if d.isFinite {
                        out.appendDouble(d)
                      } else {
                        general(.double(d), c, to: &out, writer: &scratch.writer)
                      }
                    case .date:
                      let t = Timestamp(
                        seconds: Int64(bitPattern: words[at]),
                        nanoseconds: Int32(truncatingIfNeeded: aux[at]))
                      if !out.appendDate(t) {
                        general(.date(t), c, to: &out, writer: &scratch.writer)
                      }
                    case .string:
                      out.appendQuoted(
                        UnsafeBufferPointer(rebasing: text[aux[at]..<Int(words[at])]))
                    case .link:
                      linkPrefixes[c].withUnsafeBufferPointer { out.append($0) }
                      out.appendInt(Int64(bitPattern: words[at]))
                      out.append("}")
                    case .other:
                      general(
                        batch.columns[c]?.value(at: i) ?? .null, c, to: &out,
                        writer: &scratch.writer)
                    }
                  }
                  out.append("}\n")
                }
              }
            }
          }
        }
      }
    }
  }

  /// A value through the canonical encoder.
  private func general(
    _ value: RealmValue, _ c: Int, to out: inout ByteOutput, writer: inout JSONWriter
  ) {
    writer.reset()
    encoder.writeValue(value, inMixed: mixed[c], to: &writer)
    out.append(writer.buffer)
  }
}

/// A growable byte buffer written through a pointer: each append reserves room and copies, with
/// none of `Array`'s per-append bookkeeping.
struct ByteOutput: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int) {
    self.capacity = max(capacity, 64)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// The bytes written, as an array.
  var bytes: [UInt8] { [UInt8](UnsafeBufferPointer(start: base, count: count)) }

  /// Makes room for `n` more bytes.
  @inline(__always)
  mutating func reserve(_ n: Int) {
    if capacity &- count < n { grow(n) }
  }

  @inline(never)
  private mutating func grow(_ n: Int) {
    let newCapacity = max(capacity * 2, count + n)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    grown.update(from: base, count: count)
    base.deallocate()
    base = grown
    capacity = newCapacity
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let from = bytes.baseAddress else { return }
    reserve(bytes.count)
    (base + count).update(from: from, count: bytes.count)
    count &+= bytes.count
  }

  @inline(__always)
  mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  @inline(__always)
  mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { append($0) }
  }

  /// A signed integer in decimal, exact over the whole 64-bit range.
  mutating func appendInt(_ v: Int64) {
    reserve(20)
    var m = v.magnitude
    if v < 0 {
      base[count] = UInt8(ascii: "-")
      count &+= 1
    }
    var digits = 1
    var t = m
    while t >= 10 {
      t /= 10
      digits &+= 1
    }
    var at = count &+ digits
    count = at
    repeat {
      at &-= 1
      base[at] = 0x30 &+ UInt8(truncatingIfNeeded: m % 10)
      m /= 10
    } while m > 0
  }

  /// A finite double as ``JSONWriter/writeDouble(_:)`` writes it.
  mutating func appendDouble(_ d: Double) {
    reserve(ShortestDecimal.maxLength)
    count &+= ShortestDecimal.write(d, to: base + count)
  }

  /// `{"$date":"…"}` for a date of years 1-9999; false (nothing written) otherwise.
  mutating func appendDate(_ t: Timestamp) -> Bool {
    reserve(12 + Timestamp.textLength)
    let start = count
    append("{\"$date\":\"")
    guard t.writeText(to: base + count) else {
      count = start
      return false
    }
    count &+= Timestamp.textLength
    append("\"}")
    return true
  }

  /// A quoted string from valid UTF-8, escaped as ``JSONWriter/writeString(_:)`` escapes it.
  mutating func appendQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
    // An escape is at most 6 bytes for 1.
    reserve(utf8.count &* 6 &+ 2)
    base[count] = UInt8(ascii: "\"")
    count &+= 1
    var runStart = 0
    for i in 0..<utf8.count {
      let c = utf8[i]
      if c >= 0x20 && c != 0x22 && c != 0x5C { continue }
      if runStart < i { copy(UnsafeBufferPointer(rebasing: utf8[runStart..<i])) }
      runStart = i &+ 1
      put(UInt8(ascii: "\\"))
      switch c {
      case 0x22: put(0x22)
      case 0x5C: put(0x5C)
      case 0x08: put(UInt8(ascii: "b"))
      case 0x0C: put(UInt8(ascii: "f"))
      case 0x0A: put(UInt8(ascii: "n"))
      case 0x0D: put(UInt8(ascii: "r"))
      case 0x09: put(UInt8(ascii: "t"))
      default:
        put(UInt8(ascii: "u"))
        put(UInt8(ascii: "0"))
        put(UInt8(ascii: "0"))
        put(hexDigit(c >> 4))
        put(hexDigit(c & 0xF))
      }
    }
    if runStart < utf8.count { copy(UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    put(UInt8(ascii: "\""))
  }

  /// One byte where room was reserved.
  @inline(__always)
  private mutating func put(_ b: UInt8) {
    base[count] = b
    count &+= 1
  }

  /// Bytes where room was reserved.
  @inline(__always)
  private mutating func copy(_ bytes: UnsafeBufferPointer<UInt8>) {
    (base + count).update(from: bytes.baseAddress!, count: bytes.count)
    count &+= bytes.count
  }
}

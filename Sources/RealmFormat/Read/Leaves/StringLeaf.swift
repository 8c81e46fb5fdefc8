/// A string or binary leaf in any of its storage forms (§6.3, §6.4, §4.7).
///
/// Corresponds to `realm::ArrayString` (strings) and `realm::ArrayBinary` (binaries). Values
/// are returned as views into the mapping; nil means null. For strings the trailing 0 byte of
/// the blob forms is removed.
struct StringLeaf: Sendable {
  enum Form: Sendable {
    /// `ArrayStringShort`: fixed-width slots, wtype multiply.
    case short(ArrayNode)
    /// `ArraySmallBlobs`: cumulative end offsets, one blob, null flags (1 = null), or the
    /// legacy `ArrayStringLong` (formats 2-9), whose flags mean the opposite (0 = null).
    case small(offsets: ArrayNode, blob: ArrayNode, nulls: ArrayNode?, nullIsZero: Bool)
    /// `ArrayBigBlobs`: one ref to a blob per element (0 = null).
    case big(ArrayNode)
    /// Enumerated strings: indexes into a separate leaf of distinct values.
    indirect case enumerated(indexes: ArrayNode, values: StringLeaf)
  }

  let form: Form
  /// Number of elements.
  let count: Int
  /// Strings carry a terminating 0 byte in blob forms; binaries do not.
  let isString: Bool

  /// Decodes a leaf of a string column (`isString`) or binary column.
  ///
  /// - Parameters:
  ///   - enumValues: for an enumerated string column (§4.7), the leaf of distinct values.
  ///   - legacyNullable: for strings of formats 2-9 (legacy doc §6.5.2): nil for the current
  ///     format; otherwise whether the column is nullable. A legacy medium-string leaf's third
  ///     array marks values present (1) or null (0), and counts only in nullable columns.
  init(
    _ node: ArrayNode, isString: Bool, enumValues: ArrayNode? = nil, depth: Int = 0, legacyNullable: Bool? = nil
  ) throws(FormatError) {
    self.isString = isString
    if node.hasRefs && node.header.widthType == .ignore {
      throw FormatError.corrupt("node at \(node.ref) is a blob where a string leaf is expected", at: node.ref.rawValue)
    }
    if !node.hasRefs {
      switch node.header.widthType {
      case .multiply:
        form = .short(node)
        count = node.count
      case .bits:
        guard let enumValues, depth == 0 else {
          throw FormatError.corrupt("string leaf at \(node.ref) is an integer array but the column is not enumerated", at: node.ref.rawValue)
        }
        let values = try StringLeaf(enumValues, isString: isString, depth: depth + 1)
        form = .enumerated(indexes: node, values: values)
        count = node.count
      case .ignore:
        throw FormatError.corrupt("node at \(node.ref) is a blob where a string leaf is expected", at: node.ref.rawValue)
      }
    } else if node.contextFlag {
      form = .big(node)
      count = node.count
    } else {
      guard node.count >= 2 else {
        throw FormatError.corrupt("small-blob leaf at \(node.ref) has \(node.count) slots, expected 3", at: node.ref.rawValue)
      }
      let offsets = try node.element(0)
      try offsets.requirePlainIntegers("a small-blob offset array")
      let blob = try node.child(1)
      guard blob.header.widthType == .ignore, !blob.hasRefs else {
        throw FormatError.corrupt("node at \(blob.ref) is not a blob", at: blob.ref.rawValue)
      }
      let legacyString = isString && legacyNullable != nil
      let nulls = legacyString && legacyNullable == false ? nil : try node.optionalChild(2)
      if let nulls {
        try nulls.requirePlainIntegers("a small-blob null array")
        guard nulls.count >= offsets.count else {
          throw FormatError.corrupt("small-blob leaf at \(node.ref) has \(offsets.count) offsets but \(nulls.count) null flags", at: node.ref.rawValue)
        }
      }
      form = .small(offsets: offsets, blob: blob, nulls: nulls, nullIsZero: legacyString)
      count = offsets.count
    }
  }

  /// The bytes of element `i` (a view into the file), nil for null. `i` must be below ``count``.
  ///
  /// A short-string leaf of width 0 holds only nulls.
  func bytes(_ i: Int) throws(FormatError) -> UnsafeRawBufferPointer? {
    switch form {
    case .short(let node):
      let w = node.width
      if w == 0 { return nil }
      // The node's payload was validated to hold count * w bytes.
      let start = node.payload &+ i &* w
      let last = Int(node.reader.uncheckedUInt8(at: start &+ w &- 1))
      if last == w { return nil }
      guard last < w else {
        throw FormatError.corrupt("short string \(i) at \(node.ref) has an invalid length byte \(last)", at: node.ref.rawValue)
      }
      return UnsafeRawBufferPointer(rebasing: node.reader.base[start..<(start &+ (w &- 1 &- last))])

    case .small(let offsets, let blob, let nulls, let nullIsZero):
      if let nulls, (nulls.uncheckedGet(i) == 0) == nullIsZero { return nil }
      let end = offsets.uncheckedGet(i)
      let begin = i == 0 ? 0 : offsets.uncheckedGet(i &- 1)
      guard begin >= 0, begin <= end, end <= Int64(blob.count) else {
        throw FormatError.corrupt("small-blob element \(i) has range \(begin)..<\(end) outside its blob of \(blob.count) bytes", at: offsets.ref.rawValue)
      }
      // Both bounds are within blob.count < 2^24.
      var length = Int(end &- begin)
      if isString && length > 0 { length &-= 1 }
      let s = blob.payload &+ Int(begin)
      return UnsafeRawBufferPointer(rebasing: blob.reader.base[s..<(s &+ length)])

    case .big(let node):
      let raw = node.uncheckedGet(i)
      if raw == 0 { return nil }
      guard case .ref(let r) = RefOrTagged(raw: raw) else {
        throw FormatError.corrupt("big-blob element \(i) at \(node.ref) is a tagged integer", at: node.ref.rawValue)
      }
      let blob = try ArrayNode(node.reader, r)
      guard !blob.hasRefs, blob.header.widthType == .ignore else {
        // Chunked blobs (> 16 MiB, §6.3) cannot be created through the SDKs.
        throw FormatError.corrupt("big-blob element \(i) at \(r) is not a single blob (chunked blobs are not supported)", at: r.rawValue)
      }
      var length = blob.count
      if isString && length > 0 { length &-= 1 }
      return UnsafeRawBufferPointer(rebasing: blob.reader.base[blob.payload..<(blob.payload &+ length)])

    case .enumerated(let indexes, let values):
      let v = indexes.uncheckedGet(i)
      guard v >= 0, v < Int64(values.count) else {
        throw FormatError.corrupt("enumerated string index \(v) is outside the \(values.count) values", at: indexes.ref.rawValue)
      }
      return try values.bytes(Int(v))
    }
  }

  /// Calls `body` with the position (from `rows.lowerBound`) and bytes (nil for null) of each
  /// element of `rows` whose `active` flag is set: what ``bytes(_:)`` gives, with the form
  /// examined once for the run rather than once per element. `rows` must be within ``count``.
  func forEachBytes(
    _ rows: Range<Int>, _ active: [Bool], _ body: (_ i: Int, _ bytes: UnsafeRawBufferPointer?) -> Void
  ) throws(FormatError) {
    let first = rows.lowerBound
    switch form {
    case .short(let node):
      let w = node.width
      let base = node.reader.base
      for i in 0..<rows.count where active[i] {
        if w == 0 {
          body(i, nil)
          continue
        }
        let start = node.payload &+ (first &+ i) &* w
        let last = Int(base[start &+ w &- 1])
        if last == w {
          body(i, nil)
          continue
        }
        guard last < w else {
          throw FormatError.corrupt("short string \(first &+ i) at \(node.ref) has an invalid length byte \(last)", at: node.ref.rawValue)
        }
        body(i, UnsafeRawBufferPointer(rebasing: base[start..<(start &+ (w &- 1 &- last))]))
      }
    case .small(let offsets, let blob, let nulls, let nullIsZero):
      let base = blob.reader.base
      let size = Int64(blob.count)
      for i in 0..<rows.count where active[i] {
        let row = first &+ i
        if let nulls, (nulls.uncheckedGet(row) == 0) == nullIsZero {
          body(i, nil)
          continue
        }
        let end = offsets.uncheckedGet(row)
        let begin = row == 0 ? 0 : offsets.uncheckedGet(row &- 1)
        guard begin >= 0, begin <= end, end <= size else {
          throw FormatError.corrupt("small-blob element \(row) has range \(begin)..<\(end) outside its blob of \(blob.count) bytes", at: offsets.ref.rawValue)
        }
        var length = Int(end &- begin)
        if isString && length > 0 { length &-= 1 }
        let s = blob.payload &+ Int(begin)
        body(i, UnsafeRawBufferPointer(rebasing: base[s..<(s &+ length)]))
      }
    case .big, .enumerated:
      for i in 0..<rows.count where active[i] { body(i, try bytes(first &+ i)) }
    }
  }

  /// Element `i` as a string, nil for null.
  func string(_ i: Int) throws(FormatError) -> String? {
    guard let b = try bytes(i) else { return nil }
    return String(decoding: b, as: UTF8.self)
  }
}

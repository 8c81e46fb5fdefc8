import RealmModel
/// A leaf of Mixed values (`ArrayMixed`, §6.11): a composite array plus payload arrays.
///
/// Six slots in format 24 (composite, ints, pairs, strings, nested-collection refs, salts), four
/// before. Missing or zero slots are absent.
struct MixedLeaf: Sendable {
  let composite: ArrayNode
  let ints: ArrayNode?
  let pairs: ArrayNode?
  let strings: StringLeaf?
  let refs: ArrayNode?
  var count: Int { composite.count }

  init(_ node: ArrayNode) throws(FormatError) {
    guard node.hasRefs, !node.isInner, node.count >= 1 else {
      throw FormatError.corrupt("node at \(node.ref) is not a mixed leaf", at: node.ref.rawValue)
    }
    composite = try node.element(0)
    try composite.requirePlainIntegers("a mixed composite array")
    ints = try node.optionalChild(1)
    try ints?.requirePlainIntegers("a mixed int array")
    pairs = try node.optionalChild(2)
    try pairs?.requirePlainIntegers("a mixed pair array")
    if let s = try node.optionalChild(3) {
      strings = try StringLeaf(s, isString: true)
    } else {
      strings = nil
    }
    refs = try node.optionalChild(4)
    if let refs, !refs.hasRefs {
      throw FormatError.corrupt("mixed nested-collection array at \(refs.ref) has no refs", at: refs.ref.rawValue)
    }
  }

  /// A decoded element: a scalar, a link that still needs its target, or a nested collection.
  enum Element {
    case value(RealmValue)
    /// An untyped link (object key only, §6.11 type 12).
    case link(key: Int64)
    /// A typed link: table key and object key.
    case typedLink(tableKey: Int64, key: Int64)
    /// A nested list (format 24); ref 0 = empty.
    case list(Ref)
    /// A nested dictionary (format 24); ref 0 = empty.
    case dictionary(Ref)
  }

  /// `list` or `dictionary` when element `i` (below ``count``) is a nested collection, without
  /// decoding it.
  func nestedCollectionKind(_ i: Int) -> String? {
    let v = composite.uncheckedGet(i)
    guard v != 0 else { return nil }
    switch MixedDataType(rawValue: (v & 0x1F) &- 1) {
    case .list: return "list"
    case .dictionary: return "dictionary"
    default: return nil
    }
  }

  /// Decodes element `i` (below ``count``).
  func element(_ i: Int) throws(FormatError) -> Element {
    let v = composite.uncheckedGet(i)
    if v == 0 { return .value(.null) }
    guard let type = MixedDataType(rawValue: (v & 0x1F) &- 1) else {
      throw FormatError.corrupt("mixed element \(i) at \(composite.ref) has unknown type \((v & 0x1F) - 1)", at: composite.ref.rawValue)
    }
    let payload = v >> 8  // arithmetic shift, §6.11
    switch type {
    case .int:
      if (v >> 5) & 7 == 0 { return .value(.int(payload)) }
      return .value(.int(try int(payload)))
    case .bool: return .value(.bool(payload != 0))
    case .float: return .value(.float(Float(bitPattern: UInt32(truncatingIfNeeded: try int(payload)))))
    case .double: return .value(.double(Double(bitPattern: UInt64(bitPattern: try int(payload)))))
    case .link: return .link(key: try int(payload))
    case .string:
      let b = try stringBytes(payload)
      return .value(.string(String(decoding: b, as: UTF8.self)))
    case .binary: return .value(.data(Array(try stringBytes(payload))))
    case .objectId:
      guard let id = ObjectId(bytes: try stringBytes(payload)) else { throw bad(i, "an ObjectId that is not 12 bytes") }
      return .value(.objectId(id))
    case .uuid:
      guard let id = RealmUUID(bytes: try stringBytes(payload)) else { throw bad(i, "a UUID that is not 16 bytes") }
      return .value(.uuid(id))
    case .timestamp:
      let (s, n) = try pair(payload)
      return .value(.date(Timestamp(seconds: s, nanoseconds: Int32(truncatingIfNeeded: n))))
    case .decimal:
      let (lo, hi) = try pair(payload)
      return .value(.decimal128(Decimal128(low: UInt64(bitPattern: lo), high: UInt64(bitPattern: hi))))
    case .typedLink:
      let (t, k) = try pair(payload)
      return .typedLink(tableKey: t, key: k)
    case .list, .dictionary:
      guard let refs else { throw bad(i, "a nested collection but no nested-collection array") }
      let index = try index(payload, refs.count, "nested-collection")
      let ref: Ref
      switch RefOrTagged(raw: refs.uncheckedGet(index)) {
      case .null: ref = .null
      case .ref(let r): ref = r
      case .tagged: throw bad(i, "a nested collection whose ref is a tagged integer")
      }
      return type == .list ? .list(ref) : .dictionary(ref)
    case .mixed, .set:
      throw bad(i, "type \(type.rawValue), which cannot be stored in a mixed value")
    }
  }

  private func bad(_ i: Int, _ what: String) -> FormatError {
    FormatError.corrupt("mixed element \(i) at \(composite.ref) holds \(what)", at: composite.ref.rawValue)
  }

  private func index(_ payload: Int64, _ n: Int, _ what: String) throws(FormatError) -> Int {
    guard payload >= 0, payload < Int64(n) else {
      throw FormatError.corrupt("mixed \(what) index \(payload) is outside its array of \(n) entries", at: composite.ref.rawValue)
    }
    return Int(payload)
  }

  private func int(_ payload: Int64) throws(FormatError) -> Int64 {
    guard let ints else { throw FormatError.corrupt("mixed leaf at \(composite.ref) refers to a missing int array", at: composite.ref.rawValue) }
    return ints.uncheckedGet(try index(payload, ints.count, "int"))
  }

  private func pair(_ payload: Int64) throws(FormatError) -> (Int64, Int64) {
    guard let pairs else { throw FormatError.corrupt("mixed leaf at \(composite.ref) refers to a missing pair array", at: composite.ref.rawValue) }
    guard payload >= 0, payload < Int64(pairs.count / 2) else {
      throw FormatError.corrupt("mixed pair index \(payload) is outside its array of \(pairs.count) entries", at: composite.ref.rawValue)
    }
    let p = Int(payload) &* 2
    return (pairs.uncheckedGet(p), pairs.uncheckedGet(p &+ 1))
  }

  private func stringBytes(_ payload: Int64) throws(FormatError) -> UnsafeRawBufferPointer {
    guard let strings else { throw FormatError.corrupt("mixed leaf at \(composite.ref) refers to a missing string leaf", at: composite.ref.rawValue) }
    let i = try index(payload, strings.count, "string")
    return try strings.bytes(i) ?? UnsafeRawBufferPointer(start: nil, count: 0)
  }
}

/// The element type of a column or collection, as far as decoding is concerned. Its raw value
/// is the case's name.
public enum ValueKind: String, Sendable, Hashable {
  /// Integers (`ArrayInteger`, `ArrayIntNull`).
  case int
  /// Bools (integers 0, 1 and 3 for null).
  case bool
  /// Strings (short, small-blob, big-blob or enumerated leaves).
  case string
  /// Binary data (blob leaves).
  case binary
  /// Dates (seconds and nanoseconds).
  case timestamp
  /// 32-bit floats.
  case float
  /// 64-bit doubles.
  case double
  /// Decimal128 values.
  case decimal
  /// ObjectIds (12 bytes).
  case objectId
  /// UUIDs (16 bytes).
  case uuid
  /// Mixed values.
  case mixed
  /// Links: `+1` encoded in cluster columns (§6.9), raw keys inside B+-trees (§6.13).
  case link
  /// Typed links (table and object key).
  case typedLink
  /// Backlinks.
  case backlink

  init(_ type: ColumnType) throws(FormatError) {
    switch type {
    case .int: self = .int
    case .bool: self = .bool
    case .string: self = .string
    case .binary: self = .binary
    case .timestamp: self = .timestamp
    case .float: self = .float
    case .double: self = .double
    case .decimal: self = .decimal
    case .objectId: self = .objectId
    case .uuid: self = .uuid
    case .mixed: self = .mixed
    case .link, .linkList: self = .link
    case .typedLink: self = .typedLink
    case .backlink: self = .backlink
    case .oldStringEnum, .oldTable, .oldDateTime:
      throw FormatError(.unsupportedVersion, "column type \(type.rawValue) belongs to file formats before 10")
    }
  }
}

/// A decoded leaf of any value kind: the per-leaf accessor built once and then read by row.
enum ValueLeaf: Sendable {
  case int(IntLeaf)
  case bool(ArrayNode)
  case string(StringLeaf, nullable: Bool)
  case binary(StringLeaf, nullable: Bool)
  case timestamp(TimestampLeaf)
  case floating(FloatingLeaf)
  case decimal(DecimalLeaf)
  case objectId(FixedBytesLeaf)
  case uuid(FixedBytesLeaf)
  /// Boxed: a mixed leaf's accessor is twice the size of any other, and every copy of every
  /// value leaf (one per column and cluster, copied into each batch's columns) would carry it.
  indirect case mixed(MixedLeaf)
  /// Object keys; `plusOne` in cluster columns (0 = null), raw in B+-trees.
  case link(ArrayNode, plusOne: Bool)
  /// Pairs of `(table key + 1, object key + 1)` (§6.10).
  case typedLink(ArrayNode)

  /// Decodes `node` as a leaf of `kind`.
  ///
  /// - Parameters:
  ///   - inCollection: B+-tree leaves store links without the `+1`.
  ///   - enumValues: the distinct values of an enumerated string column (§4.7).
  init(_ node: ArrayNode, kind: ValueKind, nullable: Bool, inCollection: Bool, enumValues: ArrayNode? = nil) throws(FormatError) {
    switch kind {
    case .int: self = .int(try IntLeaf(node, nullable: nullable))
    case .bool:
      try node.requirePlainIntegers("a bool leaf")
      self = .bool(node)
    case .string: self = .string(try StringLeaf(node, isString: true, enumValues: enumValues), nullable: nullable)
    case .binary:
      // §6.4: binaries use the blob forms only.
      guard node.hasRefs else { throw FormatError.corrupt("node at \(node.ref) is not a binary leaf", at: node.ref.rawValue) }
      self = .binary(try StringLeaf(node, isString: false), nullable: nullable)
    case .timestamp: self = .timestamp(try TimestampLeaf(node))
    case .float: self = .floating(try FloatingLeaf(node, double: false, nullable: nullable))
    case .double: self = .floating(try FloatingLeaf(node, double: true, nullable: nullable))
    case .decimal: self = .decimal(try DecimalLeaf(node))
    case .objectId: self = .objectId(try FixedBytesLeaf(node, elementSize: 12))
    case .uuid: self = .uuid(try FixedBytesLeaf(node, elementSize: 16))
    case .mixed: self = .mixed(try MixedLeaf(node))
    case .link:
      try node.requirePlainIntegers("a link leaf")
      self = .link(node, plusOne: !inCollection)
    case .typedLink:
      try node.requirePlainIntegers("a typed-link leaf")
      self = .typedLink(node)
    case .backlink:
      throw FormatError.corrupt("backlink columns hold no values", at: node.ref.rawValue)
    }
  }

  /// Number of elements.
  var count: Int {
    switch self {
    case .int(let l): return l.count
    case .bool(let n): return n.count
    case .string(let l, _), .binary(let l, _): return l.count
    case .timestamp(let l): return l.count
    case .floating(let l): return l.count
    case .decimal(let l): return l.count
    case .objectId(let l), .uuid(let l): return l.count
    case .mixed(let l): return l.count
    case .link(let n, _): return n.count
    case .typedLink(let n): return n.count / 2
    }
  }
}

/// An integer leaf, plain (`ArrayInteger`) or nullable (`ArrayIntNull`, §6.1).
///
/// In the nullable form element 0 is the null marker and elements 1...n are the values; a
/// value equal to the marker is null.
struct IntLeaf: Sendable {
  let node: ArrayNode
  let isNullable: Bool
  /// Number of values.
  let count: Int
  private let marker: Int64

  init(_ node: ArrayNode, nullable: Bool) throws(FormatError) {
    guard !node.hasRefs, node.header.widthType == .bits else {
      throw FormatError.corrupt("node at \(node.ref) is not an integer leaf", at: node.ref.rawValue)
    }
    self.node = node
    self.isNullable = nullable
    if nullable {
      // An empty nullable leaf still carries its marker; tolerate a zero-size node as empty.
      count = max(node.count - 1, 0)
      marker = node.count > 0 ? node.uncheckedGet(0) : 0
    } else {
      count = node.count
      marker = 0
    }
  }

  /// Value `i`, nil when null. `i` must be below ``count``.
  @inline(__always)
  func value(_ i: Int) -> Int64? {
    if isNullable {
      let v = node.uncheckedGet(i &+ 1)
      return v == marker ? nil : v
    }
    return node.uncheckedGet(i)
  }
}

extension ArrayNode {
  /// Throws unless this is a plain integer array (no refs, bit-packed).
  func requirePlainIntegers(_ what: @autoclosure () -> String) throws(FormatError) {
    guard !hasRefs, header.widthType == .bits else {
      throw FormatError.corrupt("node at \(ref) is not a plain integer array as \(what()) requires", at: ref.rawValue)
    }
  }

  /// Throws unless the node has exactly `n` elements.
  func requireCount(_ n: Int, _ what: @autoclosure () -> String) throws(FormatError) {
    guard count == n else {
      throw FormatError.corrupt("\(what()) at \(ref) has \(count) elements, expected \(n)", at: ref.rawValue)
    }
  }

  /// Decodes the node at `ref` for element access, rejecting blobs.
  ///
  /// Element reads assume the payload holds `count * width` bits; a blob (width type
  /// "ignore") holds only `count` bytes, so anything but a blob must not be one.
  init(elements reader: ByteReader, _ ref: Ref) throws(FormatError) {
    self = try ArrayNode(reader, ref)
    guard header.widthType != .ignore else {
      throw FormatError.corrupt("node at \(ref) is a blob where an array is expected", at: ref.rawValue)
    }
  }

  /// Child node `i` of a has-refs array (a null or tagged entry is an error), rejecting blobs.
  func element(_ i: Int) throws(FormatError) -> ArrayNode {
    let r = try ref(i)
    guard !r.isNull else {
      throw FormatError.corrupt("element \(i) of node at \(ref) is a null ref where a node is required", at: ref.rawValue)
    }
    return try ArrayNode(elements: reader, r)
  }

  /// The node at element `i` when that element is a non-null ref, nil when it is null,
  /// tagged, or `i` is past the end (missing optional slots).
  func optionalChild(_ i: Int) throws(FormatError) -> ArrayNode? {
    guard i < count else { return nil }
    switch RefOrTagged(raw: uncheckedGet(i)) {
    case .ref(let r): return try ArrayNode(elements: reader, r)
    case .null, .tagged: return nil
    }
  }
}

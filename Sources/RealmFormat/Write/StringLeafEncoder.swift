/// Encoders of string and binary leaves (`ArrayString`, `ArrayBinary`, §6.3, §6.4).
public enum StringLeafEncoder {
  /// Longest value of the short form (`small_string_max_size`).
  public static let shortMaxLength = 15
  /// Longest value of the medium (small blobs) form (`medium_string_max_size`).
  public static let mediumMaxLength = 63
  /// Longest binary in the small blobs form (`small_blob_max_size`).
  public static let smallBinaryMaxLength = 64
  /// Longest string or binary a blob node can hold (24-bit size, less core's reserve).
  public static let maxValueLength = 0xFF_FFF0 - 1

  /// The three storage forms of a string leaf.
  public enum Form: Sendable, Equatable {
    /// `ArrayStringShort`: fixed-width slots (values up to 15 bytes).
    case short
    /// Small blobs: offsets, one blob, nulls (values up to 63 bytes).
    case medium
    /// Big blobs: one blob node per value.
    case big
  }

  /// The form Realm uses for a leaf whose longest value has `length` bytes.
  public static func form(forLongest length: Int) -> Form {
    length <= shortMaxLength ? .short : length <= mediumMaxLength ? .medium : .big
  }

  /// A string leaf for UTF-8 values (nil = null), in the form the longest value needs.
  public static func strings<S: NodeSink>(_ values: [String?], into sink: inout S) throws(FormatError) -> Ref {
    var longest = 0
    for case let v? in values where v.utf8.count > longest { longest = v.utf8.count }
    // The short and medium forms (almost every leaf) copy each string's contiguous UTF-8
    // once; other leaves go through the generic path.
    switch form(forLongest: longest) {
    case .short:
      let width = values.isEmpty ? 0 : shortWidth(longest: values.contains { $0 != nil } ? longest : -1)
      var payload = [UInt8](repeating: 0, count: values.count * width)
      for (i, v) in values.enumerated() {
        let end = (i + 1) * width - 1
        guard var v else {
          payload[end] = UInt8(width)
          continue
        }
        let n = v.utf8.count
        v.withUTF8 { utf8 in
          for j in 0..<n { payload[i * width + j] = utf8[j] }
        }
        payload[end] = UInt8(width - 1 - n)
      }
      return sink.append(NodeEncoder.multiplyNode(width: width, count: values.count, payload: payload))
    case .medium:
      var content = [UInt8]()
      content.reserveCapacity(values.count * (longest + 1))
      var offsets = [Int64]()
      offsets.reserveCapacity(values.count)
      var nulls = [Int64]()
      nulls.reserveCapacity(values.count)
      for v in values {
        if var v { v.withUTF8 { content.append(contentsOf: $0) } }
        content.append(0)
        offsets.append(Int64(content.count))
        nulls.append(v == nil ? 1 : 0)
      }
      return mediumLeaf(offsets: offsets, content: content, nulls: nulls, into: &sink)
    case .big:
      // UTF-8 views: no copy of the bytes before they go into the node.
      return try stringBytes(values.map { $0?.utf8 }, into: &sink)
    }
  }

  /// A medium string leaf (§6.3) from its parts: the end offset of each value in `content`
  /// (values NUL-terminated there), and 1 for each null value in `nulls`.
  static func mediumLeaf<S: NodeSink>(
    offsets: [Int64], content: [UInt8], nulls: [Int64], into sink: inout S
  ) -> Ref {
    let offsetsRef = sink.append(NodeEncoder.integers(offsets))
    let blobRef = sink.append(NodeEncoder.blob(content))
    let nullsRef = sink.append(NodeEncoder.integers(nulls))
    return sink.append(
      NodeEncoder.refArray([Int64(offsetsRef.rawValue), Int64(blobRef.rawValue), Int64(nullsRef.rawValue)]))
  }

  /// The slot width of a short string leaf whose longest value has `longest` bytes (-1: only
  /// nulls): the smallest power of two above it.
  static func shortWidth(longest: Int) -> Int {
    var width = 1
    while width <= longest { width <<= 1 }
    return width
  }

  /// A string leaf for raw byte values (strings, and Mixed payloads stored as strings).
  public static func stringBytes<S: NodeSink, C: Collection>(
    _ values: [C?], into sink: inout S
  ) throws(FormatError) -> Ref where C.Element == UInt8 {
    var longest = 0
    for case let v? in values where v.count > longest { longest = v.count }
    guard longest <= maxValueLength else {
      throw FormatError.limit("a string of \(longest) bytes is longer than Realm's limit of \(maxValueLength) bytes")
    }
    switch form(forLongest: longest) {
    case .short: return sink.append(shortStringNode(bytes: values))
    case .medium: return smallBlobs(values, terminated: true, into: &sink)
    case .big: return bigBlobs(values, terminated: true, into: &sink)
    }
  }

  /// A binary leaf: small blobs while every value is at most 64 bytes, big blobs otherwise.
  public static func binaries<S: NodeSink>(_ values: [[UInt8]?], into sink: inout S) throws(FormatError) -> Ref {
    var longest = 0
    for case let v? in values where v.count > longest { longest = v.count }
    guard longest <= maxValueLength + 1 else {
      throw FormatError.limit("a binary of \(longest) bytes is longer than Realm's limit of \(maxValueLength + 1) bytes")
    }
    if longest <= smallBinaryMaxLength { return smallBlobs(values, terminated: false, into: &sink) }
    return bigBlobs(values, terminated: false, into: &sink)
  }

  /// `ArrayStringShort` (also table and column names): slot width W is the smallest power of
  /// two above the longest value; the last byte of a slot is `W - 1 - length`, `W` for null.
  /// Only an empty array gets width 0. Values must be at most 63 bytes.
  public static func shortStringNode(_ values: [[UInt8]?]) -> [UInt8] {
    shortStringNode(bytes: values)
  }

  /// ``shortStringNode(_:)`` for any byte collections (UTF-8 views need no copy).
  public static func shortStringNode<C: Collection>(bytes values: [C?]) -> [UInt8] where C.Element == UInt8 {
    var longest = -1
    for case let v? in values where v.count > longest { longest = v.count }
    var width = values.isEmpty ? 0 : 1
    while width > 0 && width <= longest { width <<= 1 }
    var payload = [UInt8]()
    payload.reserveCapacity(values.count * width)
    for v in values {
      if let v {
        payload.append(contentsOf: v)
        payload.append(contentsOf: repeatElement(0, count: width - 1 - v.count))
        payload.append(UInt8(width - 1 - v.count))
      } else {
        payload.append(contentsOf: repeatElement(0, count: width - 1))
        payload.append(UInt8(width))
      }
    }
    return NodeEncoder.multiplyNode(width: width, count: values.count, payload: payload)
  }

  /// Small blobs `[offsets, blob, nulls]` (context 0). Strings carry a trailing 0 byte, and a
  /// null string gets that single byte too, as core writes it; binaries carry none.
  static func smallBlobs<S: NodeSink, C: Collection>(
    _ values: [C?], terminated: Bool, into sink: inout S
  ) -> Ref where C.Element == UInt8 {
    var content = [UInt8]()
    var offsets = [Int64]()
    offsets.reserveCapacity(values.count)
    var nulls = [Int64]()
    nulls.reserveCapacity(values.count)
    for v in values {
      if let v { content.append(contentsOf: v) }
      if terminated { content.append(0) }
      offsets.append(Int64(content.count))
      nulls.append(v == nil ? 1 : 0)
    }
    let offsetsRef = sink.append(NodeEncoder.integers(offsets))
    let blobRef = sink.append(NodeEncoder.blob(content))
    let nullsRef = sink.append(NodeEncoder.integers(nulls))
    return sink.append(
      NodeEncoder.refArray([Int64(offsetsRef.rawValue), Int64(blobRef.rawValue), Int64(nullsRef.rawValue)]))
  }

  /// Big blobs (context 1): one `ArrayBlob` per value, 0 for null.
  static func bigBlobs<S: NodeSink, C: Collection>(
    _ values: [C?], terminated: Bool, into sink: inout S
  ) -> Ref where C.Element == UInt8 {
    var refs = [Int64]()
    refs.reserveCapacity(values.count)
    for v in values {
      guard let v else {
        refs.append(0)
        continue
      }
      var bytes = Array(v)
      if terminated { bytes.append(0) }
      let ref = sink.append(NodeEncoder.blob(bytes))
      refs.append(Int64(ref.rawValue))
    }
    return sink.append(NodeEncoder.refArray(refs, contextFlag: true))
  }
}

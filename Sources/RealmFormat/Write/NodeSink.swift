/// A destination for encoded nodes: an in-memory buffer, a new file, or free space of an
/// existing file (the commit engine).
///
/// Encoders hand over complete nodes (the 8-byte header, the payload and the padding to a
/// multiple of 8) and get back the ref where the node was placed. Nodes are immutable once
/// appended, so children are always appended before their parents (§8.1).
public protocol NodeSink {
  /// Stores `node` at an 8-aligned offset and returns that offset.
  ///
  /// `node.count` is a multiple of 8 and at least 8.
  mutating func append(_ node: [UInt8]) -> Ref
}

/// A sink that places nodes one after the other from some start offset: what a whole-file
/// writer needs to know where the data ends (§1.5 logical size, §3.4 free lists).
public protocol SequentialNodeSink: NodeSink {
  /// The offset the next node will be placed at (8-aligned).
  var endOffset: Int { get }
}

/// An in-memory file image: a 24-byte header placeholder followed by the appended nodes.
///
/// The offset of a node is its position in ``bytes``.
public struct BufferNodeSink: SequentialNodeSink, Sendable {
  /// The image so far, header placeholder included.
  public private(set) var bytes: [UInt8]

  /// Creates an image holding only the zeroed 24-byte file header.
  public init() {
    bytes = [UInt8](repeating: 0, count: 24)
  }

  /// The offset the next node will be placed at.
  public var endOffset: Int { bytes.count }

  /// Appends `node` at the end.
  public mutating func append(_ node: [UInt8]) -> Ref {
    precondition(node.count >= 8 && node.count & 7 == 0, "a node must be a multiple of 8 bytes")
    let ref = Ref(bytes.count)
    bytes.append(contentsOf: node)
    return ref
  }

  /// Replaces the 24-byte header and pads the image with zeros to `fileSize` bytes.
  public mutating func finish(header: [UInt8], fileSize: Int) {
    precondition(header.count == 24 && fileSize >= bytes.count, "header or file size out of range")
    bytes.replaceSubrange(0..<24, with: header)
    bytes.append(contentsOf: repeatElement(0, count: fileSize - bytes.count))
  }
}

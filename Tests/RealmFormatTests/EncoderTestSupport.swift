import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmFormat

/// Decoding helpers for encoder tests, written from the format document (the library's
/// reader is developed separately): they read back what the encoders produced.
struct DecodedImage {
  let reader: ByteReader

  init(_ sink: BufferNodeSink) { reader = ByteReader(bytes: sink.bytes) }
  init(bytes: [UInt8]) { reader = ByteReader(bytes: bytes) }

  func node(_ ref: Ref) throws -> ArrayNode { try ArrayNode(reader, ref) }

  func ints(_ ref: Ref) throws -> [Int64] { try node(ref).allInts() }

  func unsigned(_ ref: Ref) throws -> [UInt64] { try node(ref).allUnsigned() }

  /// A string leaf in any of its three forms (§6.3); `terminated` strips the blob forms'
  /// trailing zero (strings) or not (binaries).
  func byteStrings(_ ref: Ref, terminated: Bool = true) throws -> [[UInt8]?] {
    let n = try node(ref)
    if !n.hasRefs {
      let w = n.width
      let bytes = Array(n.payloadBytes)
      return (0..<n.count).map { i -> [UInt8]? in
        if w == 0 { return nil }
        let last = Int(bytes[i * w + w - 1])
        if last == w { return nil }
        return Array(bytes[(i * w)..<(i * w + w - 1 - last)])
      }
    }
    if !n.contextFlag {
      let offsets = try ints(try n.ref(0))
      let blob = Array(try node(try n.ref(1)).payloadBytes)
      let nulls = try ints(try n.ref(2))
      return (0..<offsets.count).map { i -> [UInt8]? in
        if nulls[i] == 1 { return nil }
        let start = i == 0 ? 0 : Int(offsets[i - 1])
        let end = Int(offsets[i]) - (terminated ? 1 : 0)
        return Array(blob[start..<end])
      }
    }
    return try (0..<n.count).map { i -> [UInt8]? in
      let r = try n.ref(i)
      if r.isNull { return nil }
      let b = Array(try node(r).payloadBytes)
      return terminated ? Array(b.dropLast()) : b
    }
  }

  func strings(_ ref: Ref) throws -> [String?] {
    try byteStrings(ref).map { $0.map { String(decoding: $0, as: UTF8.self) } }
  }

  /// Leaf refs of a B+-tree in order, checking inner-node counts (§6.13).
  func bptreeLeaves(_ ref: Ref) throws -> [Ref] {
    let n = try node(ref)
    if !n.isInner { return [ref] }
    var out = [Ref]()
    for i in 1..<(n.count - 1) { out += try bptreeLeaves(try n.ref(i)) }
    return out
  }

  /// Objects of a cluster tree in key order: (key, leaf ref, row), with S = 8 (§5.4).
  func clusterRows(_ ref: Ref, offset: Int64 = 0) throws -> [(key: Int64, leaf: ArrayNode, row: Int)] {
    let n = try node(ref)
    if !n.isInner {
      let keys: [Int64]
      switch try n.refOrTagged(0) {
      case .tagged(let c): keys = (0..<Int64(c)).map { $0 }
      case .ref(let r): keys = try unsigned(r).map { Int64(bitPattern: $0) }
      case .null: keys = []
      }
      return keys.enumerated().map { (offset &+ $0.element, n, $0.offset) }
    }
    let depth = Int(try n.tagged(1))
    let children = n.count - 3
    let offsets: [Int64] = try n.ref(0).isNull
      ? (0..<children).map { Int64($0) << (depth * 8) }
      : try unsigned(try n.ref(0)).map { Int64(bitPattern: $0) }
    var out = [(key: Int64, leaf: ArrayNode, row: Int)]()
    for i in 0..<children { out += try clusterRows(try n.ref(3 + i), offset: offset &+ offsets[i]) }
    expectEqual(out.count, Int(try n.tagged(2)))
    return out
  }

  /// Space accounting (§8.4): reachable nodes, the header and the free list cover
  /// `[0, logical size)` exactly once. Returns the number of reachable nodes.
  @discardableResult
  func checkSpace(top: Ref) throws -> Int {
    var chunks: [(Int, Int)] = [(0, 24)]
    var seen = Set<Int>()
    var stack = [top]
    while let r = stack.popLast() {
      #expect(seen.insert(r.rawValue).inserted, "node \(r) is reachable twice")
      let n = try node(r)
      chunks.append((r.rawValue, n.header.byteSize))
      expectEqual(Array(reader.base[r.rawValue..<(r.rawValue + 4)]), [0x41, 0x41, 0x41, 0x41])
      if n.hasRefs {
        for i in 0..<n.count { if case .ref(let c) = try n.refOrTagged(i) { stack.append(c) } }
      }
    }
    let t = try node(top)
    let logical = Int(try t.tagged(2))
    if t.count >= 5 {
      let pos = try ints(try t.ref(3))
      let len = try ints(try t.ref(4))
      expectEqual(pos.count, len.count)
      for (p, l) in zip(pos, len) { chunks.append((Int(p), Int(l))) }
    }
    chunks.sort { $0.0 < $1.0 }
    var end = 0
    for (p, l) in chunks {
      expectEqual(p, end, "gap or overlap at \(p), expected \(end)")
      end = p + l
    }
    expectEqual(end, logical)
    return seen.count
  }
}

/// A sink for encoder tests.
func makeSink() -> BufferNodeSink { BufferNodeSink() }

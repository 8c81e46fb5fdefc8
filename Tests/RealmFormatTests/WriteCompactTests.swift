import RealmTestSupport
import Testing
@testable import RealmFormat

@Suite struct WriteCompactTests {
  /// The live top ref and format of a fixture (§1.1, §1.2), read independently of the reader.
  func liveTop(_ bytes: [UInt8]) throws -> (Ref, Int) {
    let r = ByteReader(bytes: bytes)
    let select = Int(try r.uint8(at: 23) & 1)
    let top0 = try r.uint64(at: 0)
    if select == 0 && top0 == UInt64.max {
      return (Ref(Int(try r.uint64(at: bytes.count - 16))), Int(try r.uint8(at: 20)))
    }
    return (Ref(Int(try r.uint64(at: 8 * select))), Int(try r.uint8(at: 20 + select)))
  }

  /// Walks both trees in parallel: same headers, same plain payloads, same tagged values.
  func expectSameTree(_ a: DecodedImage, _ ra: Ref, _ b: DecodedImage, _ rb: Ref) throws -> Int {
    let na = try a.node(ra)
    let nb = try b.node(rb)
    #expect(na.header.count == nb.header.count && na.hasRefs == nb.hasRefs && na.isInner == nb.isInner)
    #expect(na.contextFlag == nb.contextFlag && na.header.widthType == nb.header.widthType)
    guard na.hasRefs else {
      expectEqual(na.width, nb.width)
      expectEqual(Array(na.payloadBytes), Array(nb.payloadBytes))
      return 1
    }
    var count = 1
    for i in 0..<na.count {
      switch (try na.refOrTagged(i), try nb.refOrTagged(i)) {
      case (.ref(let x), .ref(let y)): count += try expectSameTree(a, x, b, y)
      case (let x, let y): expectEqual(x, y)
      }
    }
    return count
  }

  @Test(arguments: ["format-samples/v24_commit.realm", "format-samples/v24_write_copy.realm", "embedded/before.realm"])
  func compactCopiesEveryTableAndTheHistory(fixture: String) throws {
    let bytes = try Fixtures.bytes(fixture)
    let (top, format) = try liveTop(bytes)
    var sink = BufferNodeSink()
    let file = try RealmFileCompactor.compact(ByteReader(bytes: bytes), topRef: top, fileFormat: format, into: &sink)
    sink.finish(header: file.header, fileSize: file.fileSize)
    let original = DecodedImage(bytes: bytes)
    let copy = DecodedImage(sink)
    let copied = try copy.checkSpace(top: file.topRef)
    let ot = try original.node(top)
    let ct = try copy.node(file.topRef)
    var nodes = try expectSameTree(original, try ot.ref(0), copy, try ct.ref(0))
    nodes += try expectSameTree(original, try ot.ref(1), copy, try ct.ref(1))
    let sourceHistory = ot.count >= 9 ? try ot.ref(8) : .null
    if !sourceHistory.isNull {
      nodes += try expectSameTree(original, try ot.ref(8), copy, try ct.ref(8))
      #expect(try ct.tagged(7) == ot.tagged(7) && ct.tagged(9) == ot.tagged(9))
    }
    // Copied nodes plus the new top and its three free-list arrays.
    expectEqual(copied, nodes + 4)
    // No free space but the tail of the last page; the data never grows.
    let free = try copy.ints(try ct.ref(4))
    #expect(free.count == 1 && free[0] <= 4096)
    // (Our top and free-list arrays have fixed 64-bit widths: up to 64 bytes more than Realm's.)
    #expect(sink.bytes.count - Int(free[0]) <= bytes.count + 64)
    expectEqual(sink.bytes[20], UInt8(format))
  }

  @Test func copierRejectsCyclesAndSharedNodes() throws {
    // Node at 24: has-refs [ref 24] (points to itself).
    var bytes = [UInt8](repeating: 0, count: 24)
    bytes += NodeEncoder.refArray([24])
    var copier = NodeTreeCopier(reader: ByteReader(bytes: bytes))
    var sink = BufferNodeSink()
    #expect(throws: FormatError(.corrupt)) { try copier.copy(Ref(24), into: &sink) }
    // Node at 24: [ref 40, ref 40]; node at 40 a plain array.
    var shared = [UInt8](repeating: 0, count: 24)
    shared += NodeEncoder.integerNode([40, 40], width: 64, hasRefs: true)
    shared += NodeEncoder.integers([1, 2] as [Int64])
    var second = NodeTreeCopier(reader: ByteReader(bytes: shared))
    #expect(throws: FormatError(.corrupt)) { try second.copy(Ref(24), into: &sink) }
    // A ref past the end of the file.
    var dangling = [UInt8](repeating: 0, count: 24)
    dangling += NodeEncoder.integerNode([4096], width: 64, hasRefs: true)
    var third = NodeTreeCopier(reader: ByteReader(bytes: dangling))
    #expect(throws: FormatError.self) { try third.copy(Ref(24), into: &sink) }
  }

  @Test func copierKeepsTaggedValuesAndRelocatesRefs() throws {
    var source = BufferNodeSink()
    let leaf = source.append(NodeEncoder.integers([7, 8, 9] as [Int64]))
    let root = source.append(NodeEncoder.refArray([Int64(leaf.rawValue), RefOrTagged.taggedRaw(99), 0], isInner: true))
    var target = BufferNodeSink()
    _ = target.append(NodeEncoder.integers([Int64](repeating: 1, count: 100)))  // shift offsets
    var copier = NodeTreeCopier(reader: ByteReader(bytes: source.bytes))
    let copied = try copier.copy(root, into: &target)
    let image = DecodedImage(target)
    let n = try image.node(copied)
    #expect(n.isInner && n.count == 3)
    #expect(try n.refOrTagged(1) == .tagged(99) && n.refOrTagged(2) == .null)
    #expect(try image.ints(try n.ref(0)) == [7, 8, 9] && n.ref(0) != leaf)
  }
}

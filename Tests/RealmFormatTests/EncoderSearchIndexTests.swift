import RealmTestBytes
import RealmTestSupport
import Testing
@testable import RealmFormat
import RealmModel

@Suite struct EncoderSearchIndexTests {
  /// The key of 4 bytes of `data` at `offset` (§4.6 `create_key`), written independently.
  func key(_ data: [UInt8]?, _ offset: Int) -> Int32 {
    guard let data, offset <= data.count else { return 0 }
    var chunk = Array(data[offset..<min(offset + 4, data.count)])
    if data.count - offset <= 3 { chunk.append(0x58) }
    while chunk.count < 4 { chunk.append(0) }
    return Int32(bitPattern: chunk.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
  }

  /// Candidate object keys for `data` (§4.6 lookup).
  func find(_ image: DecodedImage, _ ref: Ref, _ data: [UInt8]?, offset: Int = 0) throws -> [Int64] {
    let n = try image.node(ref)
    #expect(n.contextFlag && n.hasRefs)
    let keysNode = try n.child(0)
    expectEqual(keysNode.width, 32)
    let keys = try image.ints(keysNode.ref)
    expectEqual(keys, keys.sorted())
    let k = Int64(key(data, offset))
    guard let pos = keys.firstIndex(where: { $0 >= k }) else { return [] }
    let element = try n.refOrTagged(pos + 1)
    if n.isInner {
      guard case .ref(let child) = element else { return [] }
      return try find(image, child, data, offset: offset)
    }
    guard keys[pos] == k else { return [] }
    switch element {
    case .tagged(let v): return [Int64(bitPattern: v)]
    case .ref(let r):
      let sub = try image.node(r)
      if sub.contextFlag { return try find(image, r, data, offset: offset + 4) }
      return try image.bptreeLeaves(r).flatMap { try image.ints($0) }
    case .null: return []
    }
  }

  func build(_ values: [RealmValue]) throws -> (DecodedImage, Ref, SearchIndexEntries) {
    var entries = SearchIndexEntries()
    for (i, v) in values.enumerated() { try entries.append(v, key: Int64(i)) }
    var sink = makeSink()
    let root = SearchIndexWriter.write(entries, format: .current, into: &sink)
    return (DecodedImage(sink), root, entries)
  }

  @Test func keysFollowCreateKey() {
    expectEqual(key(Array("".utf8), 0), 0x5800_0000)
    expectEqual(key(Array("ab".utf8), 0), 0x6162_5800)
    expectEqual(key(nil, 0), 0)
    #expect(key([0xC3, 0xA9, 1, 2, 3], 0) < 0)
    var e = SearchIndexEntries()
    try? e.append(.string("ab"), key: 0)
    try? e.append(.null, key: 1)
    try? e.append(.string("abcdefg"), key: 2)
    #expect(e.chunkKey(0, at: 0) == 0x6162_5800 && e.chunkKey(1, at: 0) == 0)
    #expect(e.chunkKey(2, at: 4) == 0x6566_6758 && e.chunkKey(2, at: 8) == 0)
  }

  @Test func everyStringIsFoundWithItsDuplicates() throws {
    var rng = SeededRandom(seed: 7)
    let prefix = String(repeating: "p", count: 210)
    var values: [RealmValue] = [.null, .string(""), .string("a\u{0}b"), .string("é"), .null, .string("X"), .string("")]
    values += (1..<9).map { .string(String(repeating: "z", count: $0)) }  // tails of 0-3 bytes
    for i in 0..<2000 {
      switch i % 5 {
      case 0: values.append(.string("name \(rng.next() % 50)"))
      case 1: values.append(.string(prefix + "\(i % 7)"))  // equal beyond the 200-byte limit
      default:
        // Random first four letters: well over 1000 distinct keys at offset 0.
        let letters = (0..<4).map { _ in Character(Unicode.Scalar(UInt8(97 + rng.next() % 26))) }
        values.append(.string(String(letters) + " unique \(i)"))
      }
    }
    let (image, root, entries) = try build(values)
    for (i, v) in values.enumerated() {
      let data: [UInt8]? = v.isNull ? nil : Array(entries.data(i))
      let candidates = try find(image, root, data)
      #expect(candidates.contains(Int64(i)), "value \(i) not found")
      // Lists hold equal values in key order.
      #expect(candidates == candidates.sorted() || data.map { $0.count > 200 } == true)
      if case .string(let s) = v, s.utf8.count <= 200 {
        for c in candidates { expectEqual(values[Int(c)], v) }
      }
    }
    #expect(try image.node(root).isInner, "more than 1000 distinct keys need an inner node")
  }

  @Test func intsNullAndZeroAreSeparated() throws {
    let values: [RealmValue] = [.int(0), .null, .int(-1), .int(.max), .int(0), .int(1 << 32), .bool(true)]
    let (image, root, entries) = try build(values)
    for i in values.indices {
      let data: [UInt8]? = values[i].isNull ? nil : Array(entries.data(i))
      let found = try find(image, root, data)
      switch i {
      case 0, 4: expectEqual(found, [0, 4])
      case 6: expectEqual(found, [6])  // bool true indexes as int 1
      default: expectEqual(found, [Int64(i)])
      }
    }
    expectEqual(Array(entries.data(6)), [1, 0, 0, 0, 0, 0, 0, 0])
  }

  /// Columns of ints only are kept in a compact form with their own sort: the index nodes
  /// must be byte for byte those of the general form (the same entries, generalized).
  @Test func intColumnsWriteTheSameIndexAsTheGeneralForm() throws {
    var rng = SeededRandom(seed: 11)
    var values: [Int64] = [0, -1, .max, .min, 1 << 32, -(1 << 32), 255, 256, 0x5800_0000]
    for _ in 0..<3000 {
      switch rng.next() % 4 {
      case 0: values.append(Int64(rng.next() % 40))  // duplicates: key lists
      case 1: values.append(Int64(bitPattern: UInt64(rng.next()) << 32 | UInt64(rng.next() % 4)))  // equal low halves
      default: values.append(Int64(bitPattern: UInt64(rng.next())))
      }
    }
    // Keys with gaps (several runs) as well as consecutive ones.
    let keys = values.indices.map { Int64($0 < 1000 ? $0 : $0 * 3) }
    var compact = SearchIndexEntries()
    for (v, k) in zip(values, keys) { try compact.append(.int(v), key: k) }
    #expect(compact.intsOnly)
    var general = compact
    general.generalize()
    #expect(!general.intsOnly && general.count == compact.count)
    for i in [0, 1, 2, 3, 500, 2999] {
      expectEqual(compact.chunkKey(i, at: 0), general.chunkKey(i, at: 0))
      expectEqual(compact.chunkKey(i, at: 4), general.chunkKey(i, at: 4))
      expectEqual(compact.chunkKey(i, at: 8), general.chunkKey(i, at: 8))
      expectEqual(Array(compact.data(i)), Array(general.data(i)))
      expectEqual(compact.key(i), keys[i])
    }
    var a = makeSink()
    var b = makeSink()
    let ra = SearchIndexWriter.write(compact, format: .current, into: &a)
    let rb = SearchIndexWriter.write(general, format: .current, into: &b)
    #expect(ra == rb && a.bytes == b.bytes)
    // A value of another kind moves the entries to the general form.
    try compact.append(.null, key: 100_000)
    #expect(!compact.intsOnly && compact.isNull(compact.count - 1) && compact.data(5) == general.data(5))
  }

  @Test func keyRunsGiveTheKeysBack() {
    var runs = KeyRuns()
    var keys: [Int64] = []
    var rng = SeededRandom(seed: 3)
    var k: Int64 = 0
    for _ in 0..<5000 {
      k += rng.next() % 5 == 0 ? Int64(1 + rng.next() % 300) : 1
      keys.append(k)
      runs.append(k)
    }
    expectEqual(runs.count, keys.count)
    for i in stride(from: 0, to: keys.count, by: 7) { expectEqual(runs[i], keys[i]) }
    expectEqual(runs.keys(0..<keys.count), keys)
    expectEqual(runs.keys(1234..<1490), Array(keys[1234..<1490]))
    #expect(runs.keys(10..<10).isEmpty)
    var dense = KeyRuns()
    dense.append(contentsOf: Int64(7)..<Int64(1_000_007))
    #expect(dense.count == 1_000_000 && dense[999_999] == 1_000_006 && dense.keys(5..<8) == [12, 13, 14])
  }

  @Test func otherTypesIndexTheirBytes() throws {
    var e = SearchIndexEntries()
    try e.append(.date(Timestamp(seconds: 1, nanoseconds: 2)), key: 0)
    try e.append(.objectId(ObjectId(high: 1, low: 2)), key: 1)
    try e.append(.double(3.0), key: 2)
    try e.append(.double(3.5), key: 3)
    try e.append(.link(ObjectLink(className: "A", key: 9)), key: 4, tableKeys: ["A": 2])
    try e.append(.list([]), key: 5)
    let minusOnePointFive = Decimal128(low: 15, high: 1 << 63 | UInt64(6176 - 1) << 49)
    let huge = Decimal128(low: 1, high: UInt64(6176 + 30) << 49)
    try e.append(.decimal128(minusOnePointFive), key: 6)
    try e.append(.decimal128(huge), key: 7)
    // Decimals that truncate to an int64 index as that int, others as their 16 bytes.
    expectEqual(Array(e.data(6)), [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    expectEqual(e.data(7).count, 16)
    expectEqual(Array(e.data(0)), [1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0])
    expectEqual(Array(e.data(1)), ObjectId(high: 1, low: 2).bytes)
    expectEqual(Array(e.data(2)), [3, 0, 0, 0, 0, 0, 0, 0])
    expectEqual(Array(e.data(3)), [0, 0, 0, 0, 0, 0, 0x0C, 0x40])
    expectEqual(Array(e.data(4)), [2, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0])
    expectEqual(Array(e.data(5)), Array("__List__".utf8))
  }

  @Test func emptyIndexIsAnEmptyLeaf() throws {
    let (image, root, _) = try build([])
    let n = try image.node(root)
    #expect(n.count == 1 && n.contextFlag && !n.isInner)
    try expectEqual(n.child(0).width, 32)
  }
}

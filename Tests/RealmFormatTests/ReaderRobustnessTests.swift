@testable import RealmFormat
import RealmTestBytes
import RealmTestSupport
import Testing

/// Damaged copies of real files: every one must either read or fail with a ``FormatError``;
/// none may trap or hang. Deterministic seeds, so a failure can be replayed.
@Suite struct ReaderRobustnessTests {
  /// Committed files (`Tests/Fixtures`), then Realm Core's older-format samples (formats 22,
  /// 20, 11: `../shared`, skipped when absent). A sample's position is its seed.
  static let samples: [(path: String, location: FixtureLocation)] = [
    ("format-samples/v24_commit.realm", .committed), ("format-samples/v24_edge.realm", .committed),
    ("embedded/before.realm", .committed), ("nested-links/before.realm", .committed),
    ("format-samples/v24_plain_group.realm", .committed),
    (SharedFixtures.realmCoreSample("test__test_upgrade_database_4_22"), .shared),
    (SharedFixtures.realmCoreSample("test__test_upgrade_database_20"), .shared),
    (SharedFixtures.realmCoreSample("test__test_upgrade_database_11"), .shared),
    // File format 9: Realm Core 5's person-v1 and a generated file with every column kind.
    ("legacy-core5/person-v1/original.realm", .committed), ("legacy-generated/sample.realm", .committed),
  ]
  static let committed = samples.indices.filter { samples[$0].location == .committed }
  static let shared = samples.indices.filter { samples[$0].location == .shared }

  static func bytes(_ n: Int) throws -> [UInt8] { try samples[n].location.bytes(samples[n].path) }

  /// Opens, reads the schema and every object, runs the checker and looks for what format 20
  /// cannot hold; returns whether all of it
  /// succeeded. Errors are fine: only traps (which end the test process) are failures.
  @discardableResult
  static func exercise(_ bytes: [UInt8]) -> Bool {
    do {
      let group = try Group(reader: ByteReader(bytes: bytes))
      _ = try group.schema()
      for table in group.tables {
        try group.forEachObject(in: table) { _, _ in }
        _ = try? group.object(in: table, key: 0)
        _ = try? group.object(in: table, key: -44)
      }
      _ = group.check(maxProblems: 50)
      _ = try FormatCompatibility.firstObstacle(in: group, targetFormat: 20)
      return true
    } catch {
      #expect(error is FormatError, "\(error)")
      return false
    }
  }

  /// The offsets of node headers reachable from the top array (a sample of them).
  static func nodeOffsets(_ bytes: [UInt8]) -> [Int] {
    guard let group = try? Group(reader: ByteReader(bytes: bytes)) else { return [] }
    var out: [Int] = [group.topRef.rawValue]
    for t in group.tables { out += [t.ref.rawValue, t.clusterRoot.rawValue] }
    // Formats 2-9: the spec, the columns array and every column root.
    for t in group.legacy?.stored ?? [] { out += [t.spec.ref.rawValue, t.columnsRef.rawValue] + t.roots.map(\.rawValue) }
    return out.filter { $0 > 0 }
  }

  @Test(arguments: committed)
  func randomByteFlips(_ n: Int) throws { try randomByteFlips(sample: n) }

  @Test(SharedFixtures.enabled, arguments: shared)
  func randomByteFlipsInRealmCoreSamples(_ n: Int) throws { try randomByteFlips(sample: n) }

  func randomByteFlips(sample n: Int) throws {
    let original = try Self.bytes(n)
    var rng = SeededRandom(seed: 0xC0FFEE &+ UInt64(n))
    let nodes = Self.nodeOffsets(original)
    for round in 0..<150 {
      var bytes = original
      let flips = 1 + Int(rng.next() % 4)
      for _ in 0..<flips {
        let at: Int
        switch rng.next() % 4 {
        case 0: at = Int(rng.next() % 24)  // header
        case 1 where !nodes.isEmpty:  // a node header's flags or size
          at = nodes[Int(rng.next() % UInt64(nodes.count))] + 4 + Int(rng.next() % 4)
        default: at = Int(rng.next() % UInt64(bytes.count))
        }
        guard at < bytes.count else { continue }
        bytes[at] ^= UInt8(truncatingIfNeeded: 1 << (rng.next() % 8)) | (round % 7 == 0 ? 0xFF : 0)
      }
      Self.exercise(bytes)
    }
  }

  @Test(arguments: committed)
  func hostileRefsAndSizes(_ n: Int) throws { try hostileRefsAndSizes(sample: n) }

  @Test(SharedFixtures.enabled, arguments: shared)
  func hostileRefsAndSizesInRealmCoreSamples(_ n: Int) throws { try hostileRefsAndSizes(sample: n) }

  func hostileRefsAndSizes(sample n: Int) throws {
    let original = try Self.bytes(n)
    var rng = SeededRandom(seed: 0xBAD_5EED &+ UInt64(n))
    let hostile: [UInt64] = [0, 8, 16, 24, UInt64(original.count), UInt64(original.count - 8), 0xFFFF_FFFF_FFFF_FFF8, 0x7FFF_FFFF_FFFF_FFF8, 0xFFFF_FFFF]
    for _ in 0..<100 {
      var bytes = original
      // Overwrite one aligned 64-bit word with a hostile value (a ref elsewhere, a cycle, a huge size).
      let word = 3 + Int(rng.next() % UInt64(bytes.count / 8 - 3))
      let words = UInt64(bytes.count / 8 - 3)
      let value: UInt64
      if rng.next() % 3 == 0 {
        value = UInt64(8 * (3 + Int(rng.next() % words)))
      } else {
        value = hostile[Int(rng.next() % UInt64(hostile.count))]
      }
      for b in 0..<8 { bytes[word * 8 + b] = UInt8(truncatingIfNeeded: value >> (8 * b)) }
      Self.exercise(bytes)
    }
  }

  @Test func originalsReadCleanly() throws {
    for n in Self.committed { #expect(Self.exercise(try Self.bytes(n)), "\(Self.samples[n].path)") }
  }

  @Test(SharedFixtures.enabled)
  func realmCoreSamplesReadCleanly() throws {
    for n in Self.shared { #expect(Self.exercise(try Self.bytes(n)), "\(Self.samples[n].path)") }
  }
}

@Suite struct ReaderHostileTreeTests {
  /// A B+-tree inner node whose children point back at itself would take 3^64 visits to walk
  /// naively; the shared decode budget ends it with an error.
  @Test func cyclicListTreeFailsFast() throws {
    var bytes = try Fixtures.bytes("format-samples/v24_commit.realm")
    let group = try Group(reader: ByteReader(bytes: bytes))
    let big = try #require(group.table(forClass: "Big"))
    let column = try #require(big.column(named: "bigList"))
    var leaf = try ArrayNode(group.reader, big.clusterRoot)
    while leaf.isInner { leaf = try leaf.child(3) }
    let refs = try leaf.child(1 + column.leafIndex)
    var listRoot: Ref?
    for i in 0..<refs.count {
      let r = try refs.ref(i)
      if !r.isNull, try ArrayNode(group.reader, r).isInner { listRoot = r; break }
    }
    let root = try #require(listRoot)
    let inner = try ArrayNode(group.reader, root)
    try #require(inner.count >= 4 && inner.width >= 8 && root.rawValue < (1 << (inner.width - 1)))
    // Every child slot (1...n) now refers to the inner node itself.
    for i in 1..<(inner.count - 1) {
      let at = root.rawValue + 8 + i * inner.width / 8
      for b in 0..<(inner.width / 8) { bytes[at + b] = UInt8(truncatingIfNeeded: root.rawValue >> (8 * b)) }
    }
    let damaged = try Group(reader: ByteReader(bytes: bytes))
    let table = try #require(damaged.table(forClass: "Big"))
    #expect(throws: FormatError.self) { try damaged.forEachObject(in: table) { _, _ in } }
    #expect(!damaged.check().isEmpty)
  }
}

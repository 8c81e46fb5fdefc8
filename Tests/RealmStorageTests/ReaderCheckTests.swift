import RealmFormat
import RealmModel
import RealmStorage
import RealmTestSupport
import Testing

@Suite struct ReaderCheckTests {
  @Test(arguments: ReadableFixture.all)
  func everyFixtureIsClean(_ fixture: ReadableFixture) throws {
    let file = try fixture.open()
    let problems = file.group.check()
    #expect(problems.isEmpty, "\(problems.prefix(5).map(\.description).joined(separator: "\n"))")
  }
}

/// Seeded damage in copies of real files: the checker must name each problem.
@Suite struct ReaderCheckMutationTests {
  /// A mutable copy of a fixture with helpers to rewrite node elements in place.
  struct Damaged {
    var bytes: [UInt8]
    init(_ fixture: String) throws { bytes = try Fixtures.bytes(fixture) }
    var group: Group { get throws { try Group(reader: ByteReader(bytes: bytes)) } }

    /// Sets element `i` of the node at `ref` (widths 8-64 only), requiring that it fits.
    mutating func set(_ ref: Ref, _ i: Int, _ value: Int64) throws {
      let node = try ArrayNode(ByteReader(bytes: bytes), ref)
      let w = node.width
      try #require(w >= 8)
      if w < 64 { try #require(value >= -(Int64(1) << (w - 1)) && value < (Int64(1) << (w - 1))) }
      let at = ref.rawValue + 8 + i * w / 8
      for b in 0..<(w / 8) { bytes[at + b] = UInt8(truncatingIfNeeded: value >> (8 * b)) }
    }

    func node(_ ref: Ref) throws -> ArrayNode { try ArrayNode(ByteReader(bytes: bytes), ref) }

    /// Checks the damaged file and expects each of `expected` among the kinds of its problems;
    /// returns the problems.
    @discardableResult
    func expectProblems(
      _ expected: IntegrityProblem.Kind..., sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [IntegrityProblem] {
      let problems = try group.check()
      let kinds = Set(problems.map(\.kind))
      for kind in expected {
        #expect(kinds.contains(kind), "\(kind) in \(problems)", sourceLocation: sourceLocation)
      }
      return problems
    }
  }

  @Test func freeChunkOverlappingANode() throws {
    var d = try Damaged("format-samples/v24_commit.realm")
    let g = try d.group
    #expect(g.check().isEmpty)
    let positions = try d.node(g.topRef).ref(3)
    // Move the first free chunk onto the top array.
    try d.set(positions, 0, Int64(g.topRef.rawValue))
    let problems = try d.expectProblems(.overlap, .unaccountedSpace)
    #expect(problems.contains { $0.description.contains("free chunk at 0x\(String(g.topRef.rawValue, radix: 16))") })
  }

  @Test func unequalFreeLists() throws {
    var d = try Damaged("format-samples/v24_commit.realm")
    let g = try d.group
    let lengths = try d.node(g.topRef).ref(4)
    // Shrink the size field of the length array (24-bit big-endian count at bytes 5-7).
    let count = try d.node(lengths).count
    d.bytes[lengths.rawValue + 7] = UInt8((count - 1) & 0xFF)
    try #require((count - 1) >> 8 == count >> 8)
    try d.expectProblems(.freeList)
  }

  @Test func flippedRefMakesANodeShared() throws {
    var d = try Damaged("embedded/before.realm")
    let g = try d.group
    #expect(g.check().isEmpty)
    let contact = try #require(g.table(forClass: "Contact"))
    let leaf = try d.node(contact.clusterRoot)
    try #require(!leaf.isInner)
    // Column 'name' (leaf slot 2) now points at the '_id' leaf (slot 1).
    try d.set(contact.clusterRoot, 2, try leaf.get(1))
    try d.expectProblems(.sharedNode, .unaccountedSpace)
  }

  @Test func refIntoTheHeader() throws {
    var d = try Damaged("embedded/before.realm")
    let contact = try #require(try d.group.table(forClass: "Contact"))
    try d.set(contact.clusterRoot, 2, 16)
    try d.expectProblems(.invalidRef)
  }

  @Test func wrongSingleLinkBreaksBacklinksAndEmbeddedParents() throws {
    var d = try Damaged("embedded/before.realm")
    let g = try d.group
    let contact = try #require(g.table(forClass: "Contact"))
    let address = try #require(contact.column(named: "address"))
    let links = try d.node(try d.node(contact.clusterRoot).ref(1 + address.leafIndex))
    // Contact 2 links to Address 3 (stored 4); make it point at Address 0 (stored 1).
    try #require(try links.get(2) == 4)
    try d.set(links.ref, 2, 1)
    try d.expectProblems(.backlink, .embeddedParent)
  }

  @Test func clusterKeysOutOfOrder() throws {
    var d = try Damaged("format-samples/v24_commit.realm")
    let g = try d.group
    let noPk = try #require(g.table(forClass: "NoPk"))
    let root = try d.node(noPk.clusterRoot)
    try #require(root.isInner)
    let firstLeaf = try root.child(3)
    let keys = try firstLeaf.child(0)
    try #require(keys.count > 2 && keys.width >= 8)
    try d.set(keys.ref, 0, try keys.get(1) + 1)
    try d.expectProblems(.keyOrder)
  }

  @Test func wrongSubtreeCountAndColumnSize() throws {
    var d = try Damaged("format-samples/v24_commit.realm")
    let g = try d.group
    let noPk = try #require(g.table(forClass: "NoPk"))
    let root = try d.node(noPk.clusterRoot)
    try d.set(root.ref, 2, Int64(bitPattern: UInt64(noPk.objectCount + 5) << 1 | 1))
    try d.expectProblems(.subtreeCount)

    var e = try Damaged("embedded/before.realm")
    let contact = try #require(try e.group.table(forClass: "Contact"))
    let leaf = try e.node(contact.clusterRoot)
    let n = try leaf.tagged(0)
    try e.set(contact.clusterRoot, 0, Int64((n - 1) << 1 | 1))
    try e.expectProblems(.clusterSize)
  }

  @Test func primaryKeyWithoutIndex() throws {
    var d = try Damaged("embedded/before.realm")
    let contact = try #require(try d.group.table(forClass: "Contact"))
    let pk = try #require(contact.primaryKey)
    let indexes = try d.node(contact.ref).ref(4)
    try d.set(indexes, pk.leafIndex, 0)
    try d.expectProblems(.missingPrimaryKeyIndex)
  }

  @Test func cyclicTreeEndsInAProblemNotAHang() throws {
    var d = try Damaged("format-samples/v24_commit.realm")
    let g = try d.group
    let noPk = try #require(g.table(forClass: "NoPk"))
    // The second child of the inner root points back at the root.
    try d.set(noPk.clusterRoot, 4, Int64(noPk.clusterRoot.rawValue))
    let problems = try d.expectProblems(.sharedNode)
    #expect(!problems.isEmpty)
  }
}

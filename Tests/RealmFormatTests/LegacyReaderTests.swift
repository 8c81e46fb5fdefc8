import RealmTestSupport
import Testing

@testable import RealmFormat
import RealmModel

/// The reader of file formats 2-9 below the Group API: Realm Core 11's renaming rule, the
/// files Realm's upgrade refuses (made from Realm Core 5's fixtures by changing one value), and
/// `check()` finding damage that the reading itself lets through.
@Suite struct LegacyReaderTests {
  static func group(_ bytes: [UInt8]) throws -> Group { try Group(reader: ByteReader(bytes: bytes)) }

  static func alltypes() throws -> [UInt8] { try Fixtures.bytes("legacy-core5/alltypes/original.realm") }

  /// Sets element `i` of the integer array at `ref` (widths 4 to 64) to `value`.
  static func patch(_ bytes: inout [UInt8], node ref: Ref, element i: Int, to value: Int64) throws {
    let node = try ArrayNode(ByteReader(bytes: bytes), ref)
    let p = node.payload
    switch node.width {
    case 4:
      let shift = UInt8((i & 1) * 4)
      bytes[p + i / 2] = (bytes[p + i / 2] & ~(0xF << shift)) | (UInt8(value & 0xF) << shift)
    case 8, 16, 32, 64:
      let size = node.width / 8
      for b in 0..<size { bytes[p + i * size + b] = UInt8(truncatingIfNeeded: value >> (8 * Int64(b))) }
    default:
      Issue.record("width \(node.width) not handled")
    }
    try expectEqual(ArrayNode(ByteReader(bytes: bytes), ref).get(i), value)
  }

  static func stored(_ group: Group, _ name: String) throws -> LegacyTable {
    try #require(group.legacy?.stored.first { $0.name == name })
  }

  /// `Spec::convert_column_attributes`: an empty name becomes `col_<i>`; a name used by an
  /// earlier column, as already renamed, becomes `<name>_<i>`.
  @Test func columnNamesAreRenamedAsRealmCore11Does() {
    expectEqual(LegacyGroupLayout.upgradedNames(["a", "", "b"]), ["a", "col_1", "b"])
    expectEqual(LegacyGroupLayout.upgradedNames(["a", "a", "a_1"]), ["a", "a_1", "a_1_2"])
    expectEqual(LegacyGroupLayout.upgradedNames(["", "col_0", "x", "x"]), ["col_0", "col_0_1", "x", "x_3"])
  }

  @Test func readsTheCore5FixtureThroughTheGroupAPI() throws {
    let group = try Self.group(try Self.alltypes())
    expectEqual(group.fileFormat, 9)
    expectEqual(group.tables.map(\.name), ["metadata", "class_AllTypes", "class_Enums", "class_IntPk", "class_StringPk", "class_Target"])
    let intPk = try #require(group.table(forClass: "IntPk"))
    expectEqual(intPk.primaryKey.flatMap { intPk.column(key: $0)?.name }, "id")
    // Object key = row index; a link is row + 1 in the file, the target's key in the value.
    let values = try #require(try group.object(in: intPk, key: 1))
    expectEqual(values[0], .int(Int64.max))
    #expect(try group.object(in: intPk, key: 38) == nil && group.object(in: intPk, key: -1) == nil)
    var keys: [Int64] = []
    try group.forEachObject(in: intPk, skip: 30) { key, _ in keys.append(key) }
    expectEqual(keys, Array(30...37))
    try expectEqual(group.schemaVersion(), 3)
  }

  /// The ranges of the parallel dump cover a legacy table exactly, in order, with the same
  /// objects as one pass; a column projection decodes only what it names.
  @Test func objectRangesAndProjectionsOfALegacyTable() throws {
    let group = try Self.group(try Self.alltypes())
    let table = try #require(group.table(forClass: "AllTypes"))
    var whole: [(Int64, [RealmValue])] = []
    try group.forEachObject(in: table) { whole.append(($0, $1)) }
    var ranged: [(Int64, [RealmValue])] = []
    var sizes: [Int] = []
    try group.forEachObjectRange(in: table) { range in
      sizes.append(range.count)
      try group.forEachObject(in: range) { ranged.append(($0, $1)) }
    }
    expectEqual(sizes, [1000, 1000, 540])
    expectEqual(ranged.map(\.0), whole.map(\.0))
    // Compared as text: NaN values are never equal to themselves.
    let different = ranged.indices.first { "\(ranged[$0].1)" != "\(whole[$0].1)" }
    #expect(different == nil, "object \(different ?? -1) differs")
    var projected: [[RealmValue]] = []
    try group.forEachObject(in: table, skip: 2500, columns: [1, 4]) { _, values in projected.append(values) }
    expectEqual(projected.count, 40)
    for (values, full) in zip(projected, whole.suffix(40).map(\.1)) {
      #expect("\(values[1])" == "\(full[1])" && values[4] == full[4])
      #expect(values.enumerated().allSatisfy { [1, 4].contains($0.offset) || $0.element == .null })
    }
    try expectEqual(group.object(in: table, key: 7, columns: [4])?[4], whole[7].1[4])
  }

  /// Realm Core 11 stops on a DateTime column outside formats 2-4.
  @Test func aDateTimeColumnInFormat9IsRefused() throws {
    var bytes = try Self.alltypes()
    let table = try Self.stored(try Self.group(bytes), "class_AllTypes")
    let types = try ArrayNode(elements: ByteReader(bytes: bytes), table.spec.ref).ref(0)
    let dateCol = try #require(table.spec.columns.firstIndex { $0.name == "dateCol" })
    try Self.patch(&bytes, node: types, element: dateCol, to: 7)
    #expect {
      _ = try Self.group(bytes)
    } throws: { error in
      let e = error as? FormatError
      return e?.code == .unsupportedVersion
        && e?.detail == "column 'dateCol' of table 'class_AllTypes' has the DateTime type of file formats 2-4 in a format-9 file; Realm's upgrade cannot convert this file"
    }
  }

  /// A list of primitives whose subtable column is not a primitive cannot become a list.
  @Test func aSubtableOfLinksIsRefused() throws {
    var bytes = try Self.alltypes()
    let table = try Self.stored(try Self.group(bytes), "class_AllTypes")
    let dataList = try #require(table.spec.columns.first { $0.name == "dataList" }?.subspec)
    let types = try ArrayNode(elements: ByteReader(bytes: bytes), dataList.ref).ref(0)
    try Self.patch(&bytes, node: types, element: 0, to: 6)  // mixed
    #expect {
      _ = try Self.group(bytes)
    } throws: { error in
      (error as? FormatError)?.detail.hasPrefix("subtable column 'dataList' of table 'class_AllTypes' holds mixed values") == true
    }
  }

  /// The `pk` table names a class without a table: Realm Core 11 dereferences a null table.
  @Test func aPrimaryKeyOfAMissingClassIsRefused() throws {
    var bytes = try Fixtures.bytes("legacy-core5/person-v1/original.realm")
    // The pk_table value "Person" (a short string); the table name is "class_Person".
    let person = Array("Person".utf8)
    let at = try #require(bytes.indices.first { i in
      i >= 6 && i + 6 <= bytes.count && Array(bytes[i..<i + 6]) == person && Array(bytes[(i - 6)..<i]) != Array("class_".utf8)
    })
    bytes[at + 5] = UInt8(ascii: "z")
    #expect {
      _ = try Self.group(bytes)
    } throws: { error in
      (error as? FormatError)?.detail == "the 'pk' table names class 'Persoz', which has no table; Realm's upgrade cannot convert this file"
    }
  }

  /// Links to rows that do not exist and backlinks that do not mirror the links: the file
  /// still reads (Realm would read it too), `check()` finds both.
  @Test func checkFindsBrokenLinksAndBacklinks() throws {
    let clean = try Self.alltypes()
    #expect(try Self.group(clean).check().isEmpty)
    let table = try Self.stored(try Self.group(clean), "class_IntPk")
    let ref = try #require(table.spec.columns.firstIndex { $0.name == "ref" })
    let root = try ArrayNode(elements: ByteReader(bytes: clean), table.roots[ref])
    #expect(!root.isInner)

    var outOfRange = clean
    try Self.patch(&outOfRange, node: root.ref, element: 0, to: 31)  // row 30 of 30
    let problems = try Self.group(outOfRange).check()
    #expect(problems.contains { $0.kind == .linkTarget && $0.message.contains("links to row 30 of 'class_StringPk', which has 30 rows") }, "\(problems)")

    var moved = clean
    let current = try root.get(0)
    try Self.patch(&moved, node: root.ref, element: 0, to: current == 1 ? 2 : 1)
    let mismatch = try Self.group(moved).check()
    #expect(mismatch.contains { $0.kind == .backlink }, "\(mismatch)")
  }

  /// A column shorter than the table: every reading path refuses, `check()` names it.
  @Test func aShortColumnIsFound() throws {
    var bytes = try Fixtures.bytes("legacy-core5/person-v1/original.realm")
    let table = try Self.stored(try Self.group(bytes), "class_Person")
    let age = try #require(table.spec.columns.firstIndex { $0.name == "age" })
    let root = try ArrayNode(elements: ByteReader(bytes: bytes), table.roots[age])
    #expect(!root.isInner && root.count == 20)
    bytes[root.ref.rawValue + 7] = 19  // the leaf's element count
    let group = try Self.group(bytes)
    let person = try #require(group.table(forClass: "Person"))
    #expect(throws: FormatError(.corrupt)) { try group.forEachObject(in: person) { _, _ in } }
    let problems = group.check()
    #expect(problems.contains { $0.kind == .columnLength && $0.message == "column 'age' of table 'class_Person' holds 19 values for 20 rows" }, "\(problems)")
  }
}

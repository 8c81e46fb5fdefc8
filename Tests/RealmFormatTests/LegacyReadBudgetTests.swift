import Foundation
import RealmModel
import RealmTestSupport
import Testing

@testable import RealmFormat

/// Files of formats 2 to 9 are charged to the read budget as the current format is
/// (``ReadBudget``): a damaged old file whose objects share one list fails with the budget's
/// error instead of expanding.
@Suite struct LegacyReadBudgetTests {
  /// `legacy-core5/alltypes` with every `intList` cell of its 2,540 `AllTypes` objects pointing
  /// at the table's own columns array: each object's list is then the table's first column
  /// (`boolCol`, 2,540 integers), so the file expands to 2,540 x 2,540 values.
  static func sharingOneColumn() throws -> [UInt8] {
    var bytes = try LegacyReaderTests.alltypes()
    let group = try LegacyReaderTests.group(bytes)
    let table = try LegacyReaderTests.stored(group, "class_AllTypes")
    let property = try #require(table.properties.first { table.spec.columns[$0.specIndex].name == "intList" })
    let target = Int64(table.columnsRef.rawValue)
    var cursor = try LegacyLeafCursor(
      reader: ByteReader(bytes: bytes), root: table.roots[property.specIndex], limits: group.limits, budget: group.makeBudget())
    var cells = 0
    while let leaf = try cursor.next() {
      try #require(NodeEncoder.bitWidth(target) <= leaf.width, "the ref fits the leaf")
      for i in 0..<leaf.count { try LegacyReaderTests.patch(&bytes, node: leaf.ref, element: i, to: target) }
      cells += leaf.count
    }
    expectEqual(cells, 2540)
    return bytes
  }

  static func decodeAll(_ group: Group) throws -> Int {
    var values = 0
    for table in group.tables {
      try group.forEachObject(in: table) { _, row in
        values += row.count
        for case .list(let items) in row { values += items.count }
      }
    }
    return values
  }

  /// A quarter of the default units per byte: still four times what real files spend (about
  /// one unit per 4 bytes), small enough for this 832 KiB file's 6.5 million values.
  static var tightLimits: Limits {
    var limits = Limits.oneReading
    limits.readUnitsPerByte = 4
    return limits
  }

  @Test func legacyValuesAreCharged() throws {
    let bytes = try LegacyReaderTests.alltypes()
    let group = try Group(reader: ByteReader(bytes: bytes), limits: .oneReading)
    let values = try Self.decodeAll(group)
    let spent = try #require(group.readBudget).unitsSpent
    // Every value, list element and object costs at least a unit.
    #expect(spent >= values, "\(spent) units for \(values) values")
    #expect(Double(spent) / Double(bytes.count) < 1, "\(spent) units for \(bytes.count) bytes")
  }

  @Test func objectsSharingOneListExceedTheBudget() throws {
    let damaged = try Self.sharingOneColumn()
    // The undamaged file reads under the same limits.
    let sound = try Group(reader: ByteReader(bytes: try LegacyReaderTests.alltypes()), limits: Self.tightLimits)
    _ = try Self.decodeAll(sound)

    let group = try Group(reader: ByteReader(bytes: damaged), limits: Self.tightLimits)
    let error = #expect(throws: FormatError.self) { _ = try Self.decodeAll(group) }
    expectEqual(error?.code, .limitExceeded)
    expectEqual(error?.detail.contains("units of values a reading may decode, 4 per byte of the file"), true, "\(String(describing: error))")

    // Under the default limits the expansion fits (16 units per byte), and is paid for.
    let loose = try Group(reader: ByteReader(bytes: damaged), limits: .oneReading)
    #expect(try Self.decodeAll(loose) > 2540 * 2540)
    #expect(try #require(loose.readBudget).unitsSpent > 2540 * 2540)
  }
}

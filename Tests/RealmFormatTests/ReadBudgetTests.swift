import Foundation
import RealmModel
import RealmTestSupport
import Testing

@testable import RealmFormat

/// The read budget (docs/file-formats.md, "Bounded reading"): what a reading decodes stays
/// proportional to the file, and a damaged file that would expand beyond it fails cleanly.
@Suite struct ReadBudgetTests {
  static func holders(listCount: Int) throws -> [UInt8] { try CraftedFiles.holders(listCount: listCount) }
  static func sharingOneList(_ bytes: [UInt8]) throws -> [UInt8] { try CraftedFiles.sharingOneList(bytes) }

  static func decodeAll(_ group: Group) throws -> Int {
    var values = 0
    for table in group.tables {
      try group.forEachObject(in: table) { _, row in
        for case .list(let items) in row { values += items.count }
      }
    }
    return values
  }

  @Test func theUndamagedFileReadsWithinItsBudget() throws {
    let bytes = try Self.holders(listCount: 3000)
    let group = try Group(reader: ByteReader(bytes: bytes), limits: .oneReading)
    try expectEqual(Self.decodeAll(group), 3000)
    let budget = try #require(group.readBudget)
    expectEqual(budget.limit, max(Limits.default.minimumReadUnits, 16 * bytes.count))
    // 256 objects (1 + 1 per 16 bytes of names each), 256 lists, 3000 ints; the metadata
    // table's object and its version.
    expectEqual(budget.unitsSpent, 256 * 2 + 256 + 3000 + 2, "\(budget.unitsSpent)")
    #expect(Double(budget.unitsSpent) / Double(bytes.count) < 1)
  }

  @Test func aListSharedByEveryObjectExceedsTheBudget() throws {
    let damaged = try Self.sharingOneList(try Self.holders(listCount: 3000))
    // 256 x 3000 values from a file of a few kilobytes: refused, whichever way it is read.
    for limits in [Limits.default, Limits.oneReading] {
      let group = try Group(reader: ByteReader(bytes: damaged), limits: limits)
      let error = #expect(throws: FormatError.self) { _ = try Self.decodeAll(group) }
      expectEqual(error?.code, .limitExceeded)
      expectEqual(error?.detail.contains("units of values a reading may decode, 16 per byte of the file"), true, "\(String(describing: error))")
    }
  }

  @Test func aCommandsReadingsShareOneBudget() throws {
    // Under oneReading, passes add up: the same damaged-free file read twice spends twice.
    let bytes = try Self.holders(listCount: 100)
    let group = try Group(reader: ByteReader(bytes: bytes), limits: .oneReading)
    _ = try Self.decodeAll(group)
    let once = try #require(group.readBudget).unitsSpent
    _ = try Self.decodeAll(group)
    try expectEqual(#require(group.readBudget).unitsSpent, 2 * once)
    // Lookups are charged too.
    _ = try group.object(in: try #require(group.table(forClass: "Holder")), key: 0)
    try expectEqual(#require(group.readBudget).unitsSpent, 2 * once + 2 + 1 + 100)
  }

  @Test func aSmallLimitStopsAnyReading() throws {
    var limits = Limits.oneReading
    limits.minimumReadUnits = 0
    limits.readUnitsPerByte = 0
    let group = try Group(reader: ByteReader(bytes: try Self.holders(listCount: 10)), limits: limits)
    #expect(throws: FormatError.self) { _ = try Self.decodeAll(group) }
  }

  @Test func unitsOfTextAndNames() {
    expectEqual(ReadBudget.cost(ofPayloadBytes: 0), 1)
    expectEqual(ReadBudget.cost(ofPayloadBytes: 15), 1)
    expectEqual(ReadBudget.cost(ofPayloadBytes: 16), 2)
    expectEqual(ReadBudget(fileSize: 1 << 20).limit, 16 << 20)
    expectEqual(ReadBudget(fileSize: 100).limit, Limits.default.minimumReadUnits)
    expectEqual(ReadBudget(fileSize: Int.max).limit, Int.max)
  }

  /// Real files spend far less than the budget: under one unit per byte of file (the largest
  /// seen, a Realm Core test file, spends 0.23; the limit is 16).
  @Test(arguments: ["alltypes/before.realm", "strings/before.realm", "embedded/before.realm",
    "nested-links/before.realm", "format-samples/v24_edge.realm", "format-samples/v24_write_copy.realm"])
  func fixturesSpendUnderOneUnitPerByte(_ path: String) throws {
    let bytes = try Fixtures.bytes(path)
    let group = try Group(reader: ByteReader(bytes: bytes), limits: .oneReading)
    _ = try Self.decodeAll(group)
    let spent = try #require(group.readBudget).unitsSpent
    #expect(spent > 0)
    #expect(Double(spent) / Double(bytes.count) < 1, "\(path): \(spent) units for \(bytes.count) bytes")
  }

  /// The same for every real file of `../shared/wild` this reader reads (the others are
  /// refused before any value is decoded).
  @Test(SharedFixtures.enabled)
  func wildFilesSpendUnderOneUnitPerByte() throws {
    let root = try #require(SharedFixtures.url("wild/files"))
    let names = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".realm") }.sorted()
    var read = 0
    for name in names {
      let bytes = [UInt8](try Data(contentsOf: root.appendingPathComponent(name)))
      guard let group = try? Group(reader: ByteReader(bytes: bytes), limits: .oneReading),
        (try? Self.decodeAll(group)) != nil, let spent = group.readBudget?.unitsSpent
      else { continue }
      read += 1
      #expect(Double(spent) / Double(bytes.count) < 1, "\(name): \(spent) units for \(bytes.count) bytes")
    }
    #expect(read >= 60, "wild files read: \(read)")
  }
}

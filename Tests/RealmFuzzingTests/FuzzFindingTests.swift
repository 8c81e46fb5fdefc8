import Foundation
import RealmFormat
import RealmModel
import RealmTestSupport
import Testing

@testable import RealmFuzzing

/// What each fix changed, for the inputs of `Tests/FuzzCases/` whose replay alone could not
/// tell the old behaviour from the new one (a slow input still ends; these assertions do not).
@Suite struct FuzzFindingTests {
  static func input(_ path: String) throws -> [UInt8] { try FuzzCaseTests.input(path) }

  /// The input at `path`, read with the limits of one reading, and what `open --check` finds.
  static func check(_ path: String) throws -> (group: Group, problems: [IntegrityProblem]) {
    let group = try Group(reader: ByteReader(bytes: try input(path)), limits: .oneReading)
    return (group, group.check())
  }

  /// Link lists and backlink lists that share their nodes made `open --check` walk the same
  /// lists for every object (3 s under AddressSanitizer, 10 s in a debug build, for 32 KiB):
  /// the check now charges every link it reads to the read budget and reports the limit.
  @Test(arguments: [
    "reader/slow-unit-35493c84a11763770ecf233575d784040cc5e79e",
    "reader/slow-unit-68d0ccbda5d101e065713183b146fd456ac650a6",
    "reader/slow-unit-69fa73e7dd90a79ae11a9b5a97953e38f8fa9cec",
    "reader/timeout-6e8f5189e92a135ff4d438d7c7710526748e85d9",
  ])
  func checkOfSharedLinkListsStopsAtTheBudget(_ path: String) throws {
    let (group, problems) = try Self.check(path)
    #expect(problems.contains { $0.kind == .limit && $0.message.contains("units of values a reading may decode") }, "\(problems.prefix(3))")
    let budget = try #require(group.readBudget)
    #expect(budget.unitsSpent < 2 * budget.limit, "the walk stops near the limit: \(budget.unitsSpent)")
  }

  /// Refs into the middle of large has-refs nodes (each read as a node of its own, from the
  /// large node's payload) made the space walk of `open --check` scan the same bytes again for
  /// every such ref: 0.3 to 0.8 s in a release build, 7 to 17 s under ASan, for 832 KiB. The
  /// walk now stops, with an `overlap` problem, once the nodes it reached add up to more than
  /// the file (the nodes of a sound file never overlap).
  @Test(arguments: [
    "legacy/slow-unit-2286afc065e3156dcfcf82092adbf564625e24d8",
    "legacy/slow-unit-58b4fd0c6742fbc389a1837bd019ccf69b7a2c2f",
    "legacy/timeout-a61d233349d2ae61cc2eed50182249426843d7ae",
  ])
  func checkOfOverlappingNodesStopsAtTheFileSize(_ path: String) throws {
    let problems = try Self.check(path).problems
    #expect(problems.contains { $0.kind == .overlap && $0.message.contains("add up to more bytes than the file") }, "\(problems.prefix(3))")
    // The space accounting of an unfinished walk would be wrong: it is left out.
    #expect(!problems.contains { $0.kind == .unaccountedSpace }, "\(problems.filter { $0.kind == .unaccountedSpace }.prefix(3))")
  }

  /// The other three `legacy` slow units are the 832 KiB `legacy-core5/alltypes` seed itself
  /// (one of them byte for byte, the others with 1 and 7 bytes changed): what the target does
  /// with that file (read, checked, dumped, upgraded and checked again) takes 1 to 1.6 s under
  /// ASan and coverage on this machine, over 2 s when it is loaded. Nothing in the reader is
  /// slow for them; they read as the seed does.
  @Test(arguments: [
    "legacy/slow-unit-9cadd8b49c1310bd390e3281b69ea5172b801f57.patch",
    "legacy/slow-unit-e11b88ad0e3c5fb9bfbfc3b8c97a5e467df13a01.patch",
    "legacy/slow-unit-f4d03bdd31eb7d6fecaae18af7d2cc61d73dcb6b.patch",
  ])
  func seedMutationsReadLikeTheSeed(_ path: String) throws {
    let (group, problems) = try Self.check(path)
    #expect(problems.isEmpty)
    let seed = try Group(reader: ByteReader(bytes: try Self.input("../Fixtures/legacy-core5/alltypes/original.realm")))
    expectEqual(group.tables.map(\.name), seed.tables.map(\.name))
    for (table, seedTable) in zip(group.tables, seed.tables) {
      var objects = 0
      try group.forEachObject(in: table) { _, _ in objects += 1 }
      expectEqual(objects, seedTable.objectCount, "\(table.name)")
    }
  }

  /// Objects that share their link lists: every dump spends the read budget and refuses with
  /// 65 before printing more than the bound; the `reader` target then skips the other formats.
  @Test func dumpOfSharedLinkListsIsRefusedForTheBudget() throws {
    let path = ScratchDirectory.shared.write(
      try Self.input("reader/slow-unit-c7e1c959ea2b5c1d243b37e68180a820ca762619"), to: "shared-lists.realm")
    let limit = FuzzTarget.outputLimit(fileSize: try Self.input("reader/slow-unit-c7e1c959ea2b5c1d243b37e68180a820ca762619").count)
    for format in ["jsonl", "json", "table"] {
      let run = CommandProbe(["dump", path, "--format", format])
      expectEqual(run.status, 65, "\(format): \(run.errors)")
      #expect(run.errors.contains(ReadBudget.exhaustedMarker), "\(format): \(run.errors)")
      #expect(run.outputCount <= limit)
    }
  }
}

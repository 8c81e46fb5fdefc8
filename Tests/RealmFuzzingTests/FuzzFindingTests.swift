import Foundation
import RealmFormat
import RealmTestSupport
import Testing

@testable import RealmFuzzing

/// What each fix changed, for the inputs of `Tests/FuzzCases/` whose replay alone could not
/// tell the old behaviour from the new one (a slow input still ends; these assertions do not).
@Suite struct FuzzFindingTests {
  static func input(_ path: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: FuzzCaseTests.root.appendingPathComponent(path)))
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
    let group = try Group(reader: ByteReader(bytes: try Self.input(path)), limits: .oneReading)
    let problems = group.check()
    #expect(problems.contains { $0.kind == .limit && $0.message.contains("units of values a reading may decode") }, "\(problems.prefix(3))")
    let budget = try #require(group.readBudget)
    #expect(budget.unitsSpent < 2 * budget.limit, "the walk stops near the limit: \(budget.unitsSpent)")
  }

  /// Objects that share their link lists: every dump spends the read budget and refuses with
  /// 65 before printing more than the bound; the `reader` target then skips the other formats.
  @Test func dumpOfSharedLinkListsIsRefusedForTheBudget() throws {
    let path = ScratchDirectory.shared.write(
      try Self.input("reader/slow-unit-c7e1c959ea2b5c1d243b37e68180a820ca762619"), to: "shared-lists.realm")
    let limit = FuzzTarget.outputLimit(fileSize: try Self.input("reader/slow-unit-c7e1c959ea2b5c1d243b37e68180a820ca762619").count)
    for format in ["jsonl", "json", "table"] {
      let run = CommandProbe(["dump", path, "--format", format])
      #expect(run.status == 65, "\(format): \(run.errors)")
      #expect(run.errors.contains(ReadBudget.exhaustedMarker), "\(format): \(run.errors)")
      #expect(run.outputCount <= limit)
    }
  }
}

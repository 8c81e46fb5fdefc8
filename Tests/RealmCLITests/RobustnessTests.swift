import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

/// Thousands of damaged files built from real ones (deterministic seeds): `open`,
/// `open --check`, `schema`, `dump` and `upgrade --dry-run` on each either succeed or fail with the corrupt-file
/// error (exit 65) — never a trap (which would end the test process), never a hang, never
/// output out of proportion to the file (issue 2, "done when" 2).
@Suite struct RobustnessTests {
  /// Small fixtures covering the physical forms: normal files with free lists, streaming
  /// copies, B+-trees, backlinks and tombstones, embedded objects, links in mixed values;
  /// then Realm Core's samples of formats 11, 20, 22 and 23 (`../shared`, skipped when
  /// absent); then file format 9 (the old table layout): Realm Core 5's person-v1 and a
  /// generated file with every column kind of formats 2-9 (subtables, enumerated strings,
  /// link lists, backlinks, timestamps, every string leaf form, multi-leaf B+-trees). A
  /// source's position is its seed.
  static let sources: [(path: String, location: FixtureLocation)] = [
    ("nested-links/before.realm", .committed),
    ("to-embedded-ok/before.realm", .committed),
    ("user-tutorial/before.realm", .committed),
    ("embedded/before.realm", .committed),
    ("format-samples/v24_compacted.realm", .committed),
    ("format-samples/v24_edge.realm", .committed),
    (SharedFixtures.realmCoreSample("test__test_upgrade_database_11"), .shared),
    (SharedFixtures.realmCoreSample("test__test_upgrade_database_20"), .shared),
    (SharedFixtures.realmCoreSample("test__test_upgrade_database_4_22"), .shared),
    (SharedFixtures.realmCoreSample("test__object-store__sync-metadata-v6"), .shared),
    ("legacy-core5/person-v1/original.realm", .committed),
    ("legacy-generated/sample.realm", .committed),
  ]
  static let committed = sources.indices.filter { sources[$0].location == .committed }
  static let shared = sources.indices.filter { sources[$0].location == .shared }

  /// Mutated files per source file and run (`ROBUSTNESS_MUTATIONS` overrides, for long
  /// campaigns outside the suite).
  static let mutationsPerSource = environmentInt("ROBUSTNESS_MUTATIONS") ?? 320

  /// The base of the seeds (`ROBUSTNESS_SEED` overrides, for other campaigns).
  static let seedBase = UInt64(environmentInt("ROBUSTNESS_SEED") ?? 0x5EED_0000)

  static func environmentInt(_ name: String) -> Int? {
    ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
  }

  /// Prints each mutation before it runs (to find the one that traps): set `ROBUSTNESS_TRACE`.
  static let trace = ProcessInfo.processInfo.environment["ROBUSTNESS_TRACE"] != nil

  @Test(arguments: committed)
  func damagedFilesFailCleanly(_ index: Int) throws { try damagedFilesFailCleanly(source: index) }

  @Test(SharedFixtures.enabled, arguments: shared)
  func damagedRealmCoreSamplesFailCleanly(_ index: Int) throws { try damagedFilesFailCleanly(source: index) }

  func damagedFilesFailCleanly(source index: Int) throws {
    let source = Self.sources[index].path
    let mutator = try RobustnessMutator(path: try Self.sources[index].location.path(source))
    #expect(mutator.nodes.count > 3, "the walk finds the nodes of \(source)")
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("damaged.realm").path
    var random = SeededRandom(seed: Self.seedBase &+ UInt64(index))
    var outcomes: [Int32: Int] = [:]
    let kinds = RobustnessMutator.Kind.allCases
    for n in 0..<Self.mutationsPerSource {
      let kind = kinds[n % kinds.count]
      let (bytes, description) = mutator.mutate(kind, &random)
      let label = "\(source) #\(n): \(description)"
      if Self.trace { FileHandle.standardError.write(Data((label + "\n").utf8)) }
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let limit = 256 * bytes.count + 65_536
      var commands = [["open", path], ["open", path, "--check", "--json"], ["schema", path], ["dump", path]]
      // The upgrade reads through the same API as dump, then writes: every mutation of a legacy
      // file, every fourth of the others.
      if source.hasPrefix("legacy") || n % 4 == 0 { commands.append(["upgrade", path, "--dry-run"]) }
      // diff reads both files side by side (and looks link targets up): every fourth mutation.
      if n % 4 == 1 { commands.append(["diff", try Self.sources[index].location.path(source), path, "--format", "jsonl"]) }
      for arguments in commands {
        let run = CommandRun(arguments)
        outcomes[run.status, default: 0] += 1
        let allowed: Set<Int32> = arguments.contains("--check") || arguments[0] == "diff" ? [0, 1, 65] : [0, 65]
        #expect(allowed.contains(run.status), "\(arguments[0]) on \(label): exit \(run.status): \(run.errors)")
        if run.status == 65 {
          #expect(run.errors.hasPrefix("Error: ") && run.errors.contains(path), "\(label): \(run.errors)")
        }
        #expect(run.output.count <= limit, "\(arguments[0]) on \(label) printed \(run.output.count) bytes")
      }
    }
    if Self.trace { FileHandle.standardError.write(Data("\(source): exit codes \(outcomes)\n".utf8)) }
    // The damage must reach the reader: a good share of runs fail, and some still succeed.
    #expect((outcomes[65] ?? 0) > Self.mutationsPerSource / 4, "\(source): \(outcomes)")
    #expect((outcomes[0] ?? 0) > 0, "\(source): \(outcomes)")
  }
}

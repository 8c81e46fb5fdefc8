import Foundation
import RealmModel
import RealmMigration
import RealmStorage
import RealmTestSupport
import Testing

@testable import RealmCLI
import RealmExport

/// Progress on standard error: the line is a pure function of counts and times; it is shown
/// only when standard error is a terminal (and not with --quiet); and a run through a
/// pseudo-terminal sees it drawn in place and erased.
@Suite struct ProgressTests {
  @Test func theLineShowsCountsRateAndTimeLeft() {
    let line = ProgressLine.render(
      label: "Dumping big.realm", completed: 412_318, total: 1_000_000, unit: .objects, elapsed: 2,
      width: 120)
    #expect(
      line == "Dumping big.realm  41% [========>           ]  412,318/1,000,000 objects  206,159/s  0:03 left")
    let bytes = ProgressLine.render(
      label: "Compacting a.realm", completed: 41_200_000, total: 80_000_000, unit: .bytes, elapsed: 4,
      width: 120)
    expectEqual(bytes, "Compacting a.realm  51% [==========>         ]  41.2/80.0 MB  10.3 MB/s  0:04 left")
  }

  @Test func theLineFitsTheWidthDroppingTheBarFirst() {
    let full = ProgressLine.render(
      label: "Migrating app.realm", completed: 500, total: 1000, unit: .objects, elapsed: 5, width: 200)
    #expect(full.contains("[") && full.hasSuffix("0:05 left"))
    let narrow = ProgressLine.render(
      label: "Migrating app.realm", completed: 500, total: 1000, unit: .objects, elapsed: 5, width: 62)
    expectEqual(narrow, "Migrating app.realm  50%  500/1,000 objects  100/s  0:05 left")
    let tiny = ProgressLine.render(
      label: "Migrating app.realm", completed: 500, total: 1000, unit: .objects, elapsed: 5, width: 40)
    expectEqual(tiny, "Migrating app.realm  50%  500/1,000 objects".prefix(39).description)
    for width in 10...200 {
      let line = ProgressLine.render(
        label: "Dumping a-rather-long-file-name.realm", completed: 123_456_789, total: 987_654_321,
        unit: .objects, elapsed: 61, width: width)
      #expect(line.count < max(width, 11), "width \(width)")
    }
  }

  @Test func unknownTotalsAndTheFirstSecond() {
    #expect(
      ProgressLine.render(label: "Creating x.realm", completed: 1500, total: nil, unit: .bytes, elapsed: 0.5, width: 80)
        == "Creating x.realm  1.5 kB  3.0 kB/s")
    #expect(
      ProgressLine.render(label: "Dumping x", completed: 0, total: 10, unit: .objects, elapsed: 0, width: 80)
        == "Dumping x  0% [>                   ]  0/10 objects")
    expectEqual(ProgressLine.duration(3725), "1:02:05")
    expectEqual(ProgressLine.grouped(-1234567), "-1,234,567")
  }

  @Test func shownOnlyOnATerminalWithoutQuiet() {
    let both = Terminal(isStandardOutputTerminal: true, isStandardErrorTerminal: true)
    let errOnly = Terminal(isStandardOutputTerminal: false, isStandardErrorTerminal: true)
    #expect(ProgressDisplay.isEnabled(terminal: errOnly, quiet: false))
    #expect(!ProgressDisplay.isEnabled(terminal: errOnly, quiet: true))
    #expect(!ProgressDisplay.isEnabled(terminal: .plain, quiet: false))
    #expect(ProgressDisplay.isEnabled(terminal: both, quiet: false))
    // A dump printing its table on the same terminal draws no progress over it.
    #expect(!ProgressDisplay.isEnabled(terminal: both, quiet: false, resultsShareTheTerminal: true))
    #expect(ProgressDisplay.isEnabled(terminal: errOnly, quiet: false, resultsShareTheTerminal: true))
  }

  @Test func tickersPublishInBatchesAndAddUpAcrossThreads() async {
    let counter = ProgressCounter(total: 40_000)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var ticker = ProgressTicker(counter)
          for _ in 0..<10_000 { ticker.tick() }
          ticker.flush()
        }
      }
    }
    #expect(counter.completed == 40_000 && counter.total == 40_000)
    var ticker = ProgressTicker(counter)
    ticker.tick()
    expectEqual(counter.completed, 40_000)  // not published before a batch or a flush
    counter.cancel()
    var cancelled = false
    do {
      for _ in 0..<ProgressTicker.batch { try ticker.tickCheckingCancellation() }
    } catch { cancelled = true }
    #expect(cancelled)
  }

  @Test func theLibrariesCountEveryObject() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.makeFile(objects: 3000, in: dir)
    // dump: every object read.
    let file = try RealmInput.open(path)
    var dump = try ObjectDump(file: file, selection: ObjectDump.Selection())
    let counter = ProgressCounter()
    dump.progress = counter
    var writer = CountingWriter()
    try dump.run(&writer)
    #expect(counter.completed == 3000 && counter.total == 3000 && writer.count == 3000)

    // migrate: every object computed by a transform, on the column path and on the rewrite.
    let plan = try PlanDecoder.decode(
      try InputFiles.contents(of: Snapshot.packageRoot.appendingPathComponent("Examples/people/plan-v2.json").path))
    let copy = dir.appendingPathComponent("copy.realm").path
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    for columnWise in [true, false] {
      var options = MigrationOptions()
      options.inPlaceColumnChanges = columnWise
      let migrated = ProgressCounter()
      options.progress = migrated
      let result = try Migrator.migrate(path: columnWise ? copy : path, plan: plan, options: options)
      expectEqual(result.writePath, (columnWise ? .columns : .rewrite))
      #expect(migrated.completed == 3000 && migrated.total == 3000)
    }

    // compact: the bytes written, at most the new file's size.
    let compacted = ProgressCounter(unit: .bytes)
    let (_, after) = try RealmCompaction.compact(path: path, progress: compacted)
    #expect(compacted.completed > 0 && compacted.completed <= after)
  }

  /// A Person file of `objects` objects made with `create` (its data file is in `dir` too).
  static func makeFile(objects: Int, in dir: URL) throws -> String {
    let schema = Snapshot.packageRoot.appendingPathComponent("Examples/people/schema.json").path
    var data = ""
    for i in 0..<objects {
      data += "{\"$class\":\"Person\",\"$key\":\(i),\"firstName\":\"F\(i)\",\"lastName\":\"L\(i)\",\"age\":\(i % 90)}\n"
    }
    let dataPath = try CompletionTests.write(data, named: "people.jsonl", in: dir)
    let path = dir.appendingPathComponent("people.realm").path
    let result = CommandTestSupport.run(["create", path, "--schema", schema, "--data", dataPath])
    expectEqual(result.status, 0, "\(result.stderr)")
    return path
  }

  // MARK: - The built binary

  @Test func nothingIsPrintedWhenStandardErrorIsNotATerminal() throws {
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = try Self.makeFile(objects: 2000, in: dir)
    let result = try EndToEndTests.run(
      ["dump", path, "--format", "jsonl"], environment: ["REALMCTL_PROGRESS_DELAY": "0"])
    expectEqual(result.status, 0)
    expectEqual(result.stderr, "")
    expectEqual(result.stdout.split(separator: "\n").count, 2000)
  }

  @Test func aTerminalSeesProgressDrawnAndErased() throws {
    let executable = try #require(EndToEndTests.executable, "build realmctl first (swift build)").path
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let schema = Snapshot.packageRoot.appendingPathComponent("Examples/people/schema.json").path
    let objects = 20_000
    var data = ""
    for i in 0..<objects {
      data += "{\"$class\":\"Person\",\"$key\":\(i),\"firstName\":\"F\(i)\",\"lastName\":\"L\(i)\",\"age\":\(i % 90)}\n"
    }
    let dataPath = try CompletionTests.write(data, named: "people.jsonl", in: dir)
    let path = dir.appendingPathComponent("big.realm").path
    // The first frame is drawn at once (no 1-second delay), then every 0.2 s.
    let environment = ["REALMCTL_PROGRESS_DELAY": "0", "PATH": "/usr/bin:/bin"]

    let create = try PseudoTerminal([executable, "create", path, "--schema", schema, "--data", dataPath], environment: environment,
      width: 250)
    try expectEqual(create.waitForExit(timeout: 120), 0)
    let createText = String(decoding: create.transcript, as: UTF8.self)
    #expect(createText.contains("\rCreating \(path)"))
    #expect(createText.contains("\r\u{1B}[K"))  // erased when done
    #expect(create.screen.lines.joined().hasPrefix("Created \(path): schema version 1, \(objects) objects"))

    // Standard error on the terminal, the dump into a file: progress in objects.
    let out = dir.appendingPathComponent("out.jsonl").path
    let dump = try PseudoTerminal(
      ["/bin/sh", "-c", "exec \"$0\" dump \"$1\" --format jsonl > \"$2\"", executable, path, out], environment: environment,
      width: 250)
    try expectEqual(dump.waitForExit(timeout: 120), 0)
    let dumpText = String(decoding: dump.transcript, as: UTF8.self)
    #expect(dumpText.contains("\rDumping \(path)"))
    #expect(dumpText.contains("/\(ProgressLine.grouped(objects)) objects"))
    expectEqual(dump.screen.text, "")  // the line was erased
    try expectEqual(String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count, objects)

    // --quiet: nothing at all.
    let quiet = try PseudoTerminal(
      ["/bin/sh", "-c", "exec \"$0\" dump \"$1\" --quiet > /dev/null", executable, path], environment: environment)
    try expectEqual(quiet.waitForExit(timeout: 120), 0)
    #expect(quiet.transcript.isEmpty)
  }
}

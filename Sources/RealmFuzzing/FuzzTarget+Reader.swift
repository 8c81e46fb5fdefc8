import Foundation
import RealmFormat
import RealmModel
import RealmStorage

extension FuzzTarget {
  /// The input is a file: every reading command runs on it, as a user would run them.
  ///
  /// `open` (text), `open --check --json`, `schema` in its three formats, `dump` of every class
  /// as JSON Lines, JSON and a table, and `dump --format csv` of each of the first classes.
  /// Each must print its result or fail with exit status 65 and an `Error:` line (`--check`
  /// may also answer 1), and print no more than ``outputLimit(fileSize:)`` bytes.
  public static let reader = FuzzTarget(
    name: "reader",
    summary: "a .realm file: open, open --check, schema (text, json, swift), dump of every class (jsonl, json, table, csv)",
    run: { input in
      let path = ScratchDirectory.shared.write(input, to: "input.realm")
      var log = ProbeLog(outputLimit: outputLimit(fileSize: input.count))
      log.run(["open", path])
      log.run(["open", path, "--check", "--json"], allowed: [0, 1, 65])
      log.run(["schema", path])
      log.run(["schema", path, "--format", "json"])
      log.run(["schema", path, "--format", "swift"])
      let dump = log.run(["dump", path, "--format", "jsonl"])
      // A file whose objects share nodes spends the whole read budget in every dump before it
      // is refused; the other formats read the same objects through the same budget, so they
      // would only repeat that bounded work (seconds per input under AddressSanitizer).
      if dump.status == 65 && dump.errors.contains(ReadBudget.exhaustedMarker) { return log.problems }
      log.run(["dump", path, "--format", "json"])
      log.run(["dump", path, "--format", "table"])
      for name in readerClassNames(path).prefix(3) {
        // `--class=NAME`: a name the file gives may start with "-".
        log.run(["dump", path, "--format", "csv", "--class=\(name)"])
      }
      return log.problems
    },
    seeds: { resources in try readerSeeds(resources) })

  /// Writes `input` to the scratch file `name` and runs on it the reading commands of the
  /// `encrypted` and `legacy` targets: `open`, `open --check --json`, `schema --format json`
  /// and `dump` as JSON Lines, each with `options` (a key file) added. Each must succeed or
  /// exit 65 (`--check` may also answer 1) and print no more than ``outputLimit(fileSize:)``
  /// bytes. Returns the file's path and the broken promises.
  static func readingCommands(on input: [UInt8], as name: String, options: [String] = []) -> (path: String, problems: [String]) {
    let path = ScratchDirectory.shared.write(input, to: name)
    let limit = outputLimit(fileSize: input.count)
    let runs: [(arguments: [String], allowed: Set<Int32>)] = [
      (["open", path], [0, 65]),
      (["open", path, "--check", "--json"], [0, 1, 65]),
      (["schema", path, "--format", "json"], [0, 65]),
      (["dump", path, "--format", "jsonl"], [0, 65]),
    ]
    let problems = runs.flatMap { run in
      CommandProbe(run.arguments + options).problems(allowed: run.allowed, outputLimit: limit)
    }
    return (path, problems)
  }

  /// Runs the command `arguments(path)`, which writes the scratch file `output` at `path`: it
  /// must succeed or exit 65. When it succeeded, `check` gives the broken promises of the file
  /// it wrote.
  static func writingCommand(
    output: String, _ arguments: (String) -> [String], check: (String) -> [String]
  ) -> [String] {
    let path = ScratchDirectory.shared.freshFile(output)
    let run = CommandProbe(arguments(path))
    return run.problems(allowed: [0, 65]) + (run.status == 0 ? check(path) : [])
  }

  /// The most a reading command may print for a file of `fileSize` bytes: 256 bytes per unit
  /// of its read budget (``ReadBudget``: a unit is one value, name or 16 bytes of text; its
  /// JSON, with the indentation of values nested 100 deep, stays below 256 bytes).
  public static func outputLimit(fileSize: Int) -> Int {
    256 &* ReadBudget(fileSize: fileSize).limit
  }

  /// The top-level classes of the file at `path`, empty when it cannot be read.
  static func readerClassNames(_ path: String) -> [String] {
    guard let file = try? RealmFile.open(path: path), let schema = try? file.group.schema() else { return [] }
    return schema.classes.filter { !$0.isEmbedded }.map(\.name)
  }

  /// Every `.realm` file of `Tests/Fixtures` (of every format, legacy ones included when they
  /// are there; encrypted ones aside) and `Examples/` up to 256 KiB, and small files cut from
  /// the larger reading fixtures (their schema and first objects, built by our writer).
  static func readerSeeds(_ resources: FuzzResources) throws -> [FuzzSeed] {
    var seeds: [FuzzSeed] = []
    // Encrypted files are the `encrypted` target's seeds: without their key they only fail.
    for (url, relative) in resources.seedFiles(where: { $0.hasSuffix(".realm") }) where !relative.hasPrefix("encrypted/") {
      let bytes = try resources.bytes(url)
      if bytes.count <= 256 << 10 { seeds.append(resources.seed(url, bytes: bytes)) }
    }
    for (name, bytes) in try CutDownFiles.build(resources) {
      seeds.append(FuzzSeed(name: "cut-\(name).realm", bytes: bytes))
    }
    return seeds
  }
}

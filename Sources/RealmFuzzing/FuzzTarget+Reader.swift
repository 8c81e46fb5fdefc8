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
      let limit = outputLimit(fileSize: input.count)
      var problems: [String] = []
      @discardableResult
      func probe(_ arguments: [String], allowed: Set<Int32> = [0, 65]) -> CommandProbe {
        let run = CommandProbe(arguments)
        problems += run.problems(allowed: allowed, outputLimit: limit)
        return run
      }
      probe(["open", path])
      probe(["open", path, "--check", "--json"], allowed: [0, 1, 65])
      probe(["schema", path])
      probe(["schema", path, "--format", "json"])
      probe(["schema", path, "--format", "swift"])
      let dump = probe(["dump", path, "--format", "jsonl"])
      // A file whose objects share nodes spends the whole read budget in every dump before it
      // is refused; the other formats read the same objects through the same budget, so they
      // would only repeat that bounded work (seconds per input under AddressSanitizer).
      if dump.status == 65 && dump.errors.contains(ReadBudget.exhaustedMarker) { return problems }
      probe(["dump", path, "--format", "json"])
      probe(["dump", path, "--format", "table"])
      for name in readerClassNames(path).prefix(3) {
        probe(["dump", path, "--format", "csv", "--class", name])
      }
      return problems
    },
    seeds: { resources in try readerSeeds(resources) })

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
    for root in [resources.fixtures, resources.packageRoot.appendingPathComponent("Examples")] {
      // Encrypted files are the `encrypted` target's seeds: without their key they only fail.
      for relative in resources.files(below: root, where: { $0.hasSuffix(".realm") }) where !relative.hasPrefix("encrypted/") {
        let url = root.appendingPathComponent(relative)
        let bytes = try resources.bytes(url)
        if bytes.count <= 256 << 10 { seeds.append(resources.seed(url, bytes: bytes)) }
      }
    }
    for (name, bytes) in try CutDownFiles.build(resources) {
      seeds.append(FuzzSeed(name: "cut-\(name).realm", bytes: bytes))
    }
    return seeds
  }
}

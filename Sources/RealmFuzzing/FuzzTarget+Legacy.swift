import Foundation

extension FuzzTarget {
  /// The input is a file of formats 2 to 9: the legacy reader (its table layout, old specs,
  /// subtables, the `pk` table) under the reading commands, and `upgrade`, which rewrites it in
  /// format 24.
  ///
  /// `open`, `open --check --json`, `schema --format json`, `dump` (JSON Lines) and
  /// `upgrade --output`; each must succeed or exit 65 with an `Error:` line (`--check` may
  /// answer 1), and print no more than the reader's bound. A file `upgrade` wrote must pass
  /// `open --check`.
  public static let legacy = FuzzTarget(
    name: "legacy",
    summary: "a .realm file of formats 2-9: open, open --check, schema, dump, upgrade --output (then open --check of the result)",
    run: { input in
      let scratch = ScratchDirectory.shared
      let path = scratch.write(input, to: "legacy.realm")
      let limit = outputLimit(fileSize: input.count)
      var problems: [String] = []
      func probe(_ arguments: [String], allowed: Set<Int32> = [0, 65]) {
        problems += CommandProbe(arguments).problems(allowed: allowed, outputLimit: limit)
      }
      probe(["open", path])
      probe(["open", path, "--check", "--json"], allowed: [0, 1, 65])
      probe(["schema", path, "--format", "json"])
      probe(["dump", path, "--format", "jsonl"])
      scratch.remove("upgraded.realm")
      let upgraded = scratch.file("upgraded.realm")
      let upgrade = CommandProbe(["upgrade", path, "--output", upgraded, "--quiet"])
      problems += upgrade.problems(allowed: [0, 65])
      if upgrade.status == 0 {
        let check = CommandProbe(["open", upgraded, "--check"])
        if check.status != 0 { problems.append("the file upgrade wrote fails open --check: \(check.status): \(check.outputText.prefix(2000))") }
      }
      return problems
    },
    seeds: { resources in try legacySeeds(resources) })

  /// Every `.realm` file of formats 2 to 9 in `Tests/Fixtures` and `Examples/` up to 1 MiB.
  static func legacySeeds(_ resources: FuzzResources) throws -> [FuzzSeed] {
    var seeds: [FuzzSeed] = []
    for root in [resources.fixtures, resources.packageRoot.appendingPathComponent("Examples")] {
      for relative in resources.files(below: root, where: { $0.hasSuffix(".realm") }) {
        let url = root.appendingPathComponent(relative)
        let bytes = try resources.bytes(url)
        guard bytes.count <= 1 << 20, let format = legacyFileFormat(bytes), format <= 9 else { continue }
        seeds.append(resources.seed(url, bytes: bytes))
      }
    }
    return seeds
  }

  /// The file format of the selected top ref (header bytes 20-21, select bit in byte 23), or nil
  /// when the bytes are no plain Realm file.
  static func legacyFileFormat(_ bytes: [UInt8]) -> Int? {
    guard bytes.count >= 24, bytes[16..<20].elementsEqual("T-DB".utf8) else { return nil }
    return Int(bytes[20 + Int(bytes[23] & 1)])
  }
}

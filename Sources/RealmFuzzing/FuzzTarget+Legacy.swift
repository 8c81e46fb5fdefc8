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
      let file = readingCommands(on: input, as: "legacy.realm")
      return file.problems
        + writingCommand(output: "upgraded.realm") { upgraded in
          ["upgrade", file.path, "--output", upgraded, "--quiet"]
        } check: { upgraded in
          let check = CommandProbe(["open", upgraded, "--check"])
          if check.status == 0 { return [] }
          return ["the file upgrade wrote fails open --check: \(check.status): \(check.outputText.prefix(2000))"]
        }
    },
    seeds: { resources in try legacySeeds(resources) })

  /// Every `.realm` file of formats 2 to 9 in `Tests/Fixtures` and `Examples/` up to 1 MiB.
  static func legacySeeds(_ resources: FuzzResources) throws -> [FuzzSeed] {
    var seeds: [FuzzSeed] = []
    for (url, _) in resources.seedFiles(where: { $0.hasSuffix(".realm") }) {
      let bytes = try resources.bytes(url)
      guard bytes.count <= 1 << 20, let format = legacyFileFormat(bytes), format <= 9 else { continue }
      seeds.append(resources.seed(url, bytes: bytes))
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

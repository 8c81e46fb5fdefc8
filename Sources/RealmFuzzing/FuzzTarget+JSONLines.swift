import Foundation

extension FuzzTarget {
  /// The input is what `create` reads: its first line a schema JSON document, the other lines
  /// objects in canonical JSON Lines.
  ///
  /// `realmctl create OUT --schema S --data D` must build the file or fail with exit status 65
  /// and an `Error:` line; a file it built must be sound (`open --check` clean, exit 0) and
  /// dump again (exit 0). Every line `create`'s fast path decodes must decode to the same
  /// object through the full path (``SimpleLineAgreement``).
  public static let jsonLines = FuzzTarget(
    name: "jsonl",
    summary: "create's input: a schema JSON document on the first line, canonical JSON Lines objects after it",
    run: { input in
      let scratch = ScratchDirectory.shared
      let newline = input.firstIndex(of: 0x0A) ?? input.endIndex
      let schema = scratch.write(Array(input[..<newline]), to: "schema.json")
      let data = scratch.write(Array(input[min(newline + 1, input.endIndex)...]), to: "data.jsonl")
      let out = scratch.freshFile("created.realm")
      let create = CommandProbe(["create", out, "--schema", schema, "--data", data])
      var problems = create.problems(allowed: [0, 65])
      problems += SimpleLineAgreement.problems(
        schemaBytes: Array(input[..<newline]), data: Array(input[min(newline + 1, input.endIndex)...]))
      if create.status == 0 {
        problems += CommandProbe(["open", out, "--check"]).problems(allowed: [0])
        problems += CommandProbe(["dump", out, "--format", "jsonl"]).problems(allowed: [0])
      }
      return problems
    },
    seeds: { resources in try jsonLinesSeeds(resources) })

  /// Every fixture `schema.json` (compacted to one line) with the first lines of its
  /// `dump.jsonl`, up to 16 KiB, and the text examples of `Examples/`.
  static func jsonLinesSeeds(_ resources: FuzzResources) throws -> [FuzzSeed] {
    var seeds: [FuzzSeed] = []
    for (schemaURL, _) in resources.seedFiles(where: { $0.hasSuffix("schema.json") }) {
      // x/schema.json goes with x/dump.jsonl, x/after.schema.json with x/after.dump.jsonl,
      // Examples' schema.json with the data.jsonl beside it.
      var dataURL = URL(fileURLWithPath: String(schemaURL.path.dropLast("schema.json".count)) + "dump.jsonl")
      if !FileManager.default.fileExists(atPath: dataURL.path) {
        dataURL = schemaURL.deletingLastPathComponent().appendingPathComponent("data.jsonl")
      }
      guard FileManager.default.fileExists(atPath: dataURL.path) else { continue }
      let schema = try resources.bytes(schemaURL).filter { $0 != 0x0A && $0 != 0x0D }
      var seed = schema + [0x0A]
      for line in try resources.bytes(dataURL).split(separator: 0x0A) {
        if seed.count + line.count > 16 << 10 { break }
        seed += line + [0x0A]
      }
      seeds.append(resources.seed(dataURL, bytes: seed))
    }
    return seeds
  }
}

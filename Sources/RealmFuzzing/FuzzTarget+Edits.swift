import Foundation
import RealmFormat
import RealmModel
import RealmStorage

extension FuzzTarget {
  /// The input is a file: the newest paths that read it to write it or to compare it run on
  /// it, as a user would run them.
  ///
  /// `dump --for-diff` (the stable dump), `diff FILE FILE`, `dump --where` with queries on
  /// the first string and int properties of the first classes (string scans, search-index
  /// lookups), `unsync --dry-run`, then, each on a fresh copy of the input, `insert --upsert`
  /// of the file's own first objects (primary keys read from the leaves, the unchanged-value
  /// check) and a plain `insert` of its first object without its key (the streamed append,
  /// or a refused duplicate primary key). Each must succeed or exit 65 (`diff` may answer 1,
  /// a query 64), never 70; when the input passes `open --check`, so must a file an insert
  /// wrote.
  public static let edits = FuzzTarget(
    name: "edits",
    summary: "a .realm file: dump --for-diff, diff, indexed and string queries, unsync --dry-run, insert --upsert and insert of its own objects",
    run: runEdits, seeds: editsSeeds)

  static func runEdits(_ input: [UInt8]) -> [String] {
    let path = ScratchDirectory.shared.write(input, to: "input.realm")
    var log = ProbeLog(outputLimit: outputLimit(fileSize: input.count))
    let stable = log.run(["dump", path, "--for-diff"])
    if stable.status == 65 && stable.errors.contains(ReadBudget.exhaustedMarker) { return log.problems }
    log.run(["diff", path, path], allowed: [0, 1, 65])
    for (name, queries) in editQueries(path).prefix(3) {
      for query in queries { log.run(["dump", path, "--class=\(name)", "--where", query, "--format", "jsonl"], allowed: [0, 64, 65]) }
    }
    log.run(["unsync", path, "--dry-run"])
    let dump = CommandProbe(["dump", path, "--format", "jsonl"], keep: 4096)
    guard dump.status == 0 else { return log.problems }
    let lines = dump.outputText.split(separator: "\n").prefix(3).map(String.init)
    guard !lines.isEmpty else { return log.problems }
    let inputIsClean = CommandProbe(["open", path, "--check", "--json"]).status == 0
    let keyless = lines[0].replacingOccurrences(of: #""\$key":-?[0-9]+,"#, with: "", options: .regularExpression)
    let writes: [(name: String, lines: [String], options: [String])] = [
      ("upsert", lines, ["--upsert"]), ("insert", [keyless], []),
    ]
    for write in writes {
      let data = ScratchDirectory.shared.write(Array((write.lines.joined(separator: "\n") + "\n").utf8), to: "\(write.name).jsonl")
      let file = ScratchDirectory.shared.write(input, to: "\(write.name).realm")
      let run = log.run(["insert", file, data] + write.options, bounded: false)
      if run.status == 0 && inputIsClean && CommandProbe(["open", file, "--check", "--json"]).status != 0 {
        log.record("realmctl insert \(write.options.joined(separator: " ")): the file it wrote fails open --check, the input passed")
      }
    }
    return log.problems
  }

  /// The `reader` seeds of formats 10 and later up to 64 KiB, and a built file of indexed items.
  static func editsSeeds(_ resources: FuzzResources) throws -> [FuzzSeed] {
    try readerSeeds(resources).filter { seed in
      seed.bytes.count <= 64 << 10 && !seed.name.contains("legacy") && !seed.name.contains("format-samples")
    } + [FuzzSeed(name: "built-indexed-items.realm", bytes: try indexedItems())]
  }

  /// 1,200 objects with an int primary key and an indexed string shared by 24 objects each:
  /// an inner cluster root, an int index of two leaves under an inner node, index lists.
  static func indexedItems() throws -> [UInt8] {
    let schema = Schema(schemaVersion: 1, fileFormat: 24, classes: [
      ObjectSchema(name: "Item", primaryKey: "_id", properties: [
        Property(name: "_id", type: .int, isIndexed: true),
        Property(name: "name", type: .string, isIndexed: true),
        Property(name: "n", type: .int),
      ])
    ])
    let builder = try RealmFileBuilder(schema: schema, sink: BufferNodeSink())
    for i in 0..<1200 {
      _ = try builder.append(className: "Item", key: nil, values: [.int(Int64(i) * 3), .string("a\(i % 50)"), .int(Int64(i))])
    }
    let finished = try builder.finish()
    var sink = builder.sink
    sink.finish(header: finished.header, fileSize: finished.fileSize)
    return sink.bytes
  }

  /// For the top-level classes of the file at `path`: queries on the first string property
  /// (equality, a prefix, a substring, case-insensitively) and on the first int property
  /// (equality, a set), which take the string scans and the search-index lookups.
  static func editQueries(_ path: String) -> [(String, [String])] {
    guard let file = try? RealmFile.open(path: path), let schema = try? file.group.schema() else { return [] }
    return schema.classes.filter { !$0.isEmbedded }.map { cls in
      var queries: [String] = []
      let plain = cls.properties.filter { $0.collection == .single }
      if let s = plain.first(where: { $0.type == .string }) {
        queries += ["\(s.name) == 'a'", "\(s.name) BEGINSWITH 'a'", "\(s.name) CONTAINS[c] 'e'", "\(s.name) LIKE '*a?'"]
      }
      if let i = plain.first(where: { $0.type == .int }) {
        queries += ["\(i.name) == 1", "\(i.name) IN {1, 2, 300}"]
      }
      return (cls.name, queries)
    }
  }
}

import RealmModel
import RealmFormat

/// Scans: every object of the class tested a batch at a time, column by column
/// (``QueryBatchFilter``), on every core.
///
/// The table's cluster leaves are cut into chunks of consecutive objects that are filtered on
/// all cores (``OrderedParallelMap``), each chunk giving a small result (a count, keys, the
/// selected objects, the best rows of a SORT) that the calling thread takes in key order. At
/// most a window of chunks is in flight, so memory stays bounded whatever the table's size.
extension RealmQuery {
  /// How a scan runs; the defaults are the fast paths, the others exist so that tests can
  /// compare them with the generic ones.
  struct ScanOptions: Sendable {
    /// Compare on the leaves in the file where a comparison allows.
    var readsLeaves = true
    /// Filter chunks on every core (false: on the calling thread).
    var parallel = true
    /// Objects per chunk (whole cluster leaves are added until a chunk has this many).
    var chunkObjects = 8192
    /// Objects per chunk at most while chunks keep few of their objects: a chunk twice the
    /// size of the last follows one that kept fewer than 1 in 64 of its objects, up to this
    /// (and 16 times ``chunkObjects``), so a sparse scan hands fewer chunks between threads.
    var largestChunkObjects = 1 << 16
    /// Objects scanned between two releases of the file's resident pages
    /// (`ByteReader.releaseResidentPages()`).
    var releaseObjects = 1 << 19
    /// Only the objects whose key is greater than this one (a page that starts after a key):
    /// the leaves before it are not opened.
    var startAfterKey: Int64? = nil

    static let standard = ScanOptions()
  }

  /// Filters every object of `table`, chunk by chunk: `work` gets each batch with the
  /// positions of its matching objects and adds to its chunk's result (which starts as
  /// `initial()`), `consume` gets the chunks' results in key order.
  func scan<Partial>(
    _ group: Group, _ table: Table, options: ScanOptions, progress: ProgressCounter?,
    initial: @escaping @Sendable () -> Partial,
    work: @escaping @Sendable (_ batch: SelectionBatch, _ selected: [Int], _ partial: inout Partial) throws -> Void,
    consume: (Partial) throws -> Void
  ) throws {
    var filter = QueryBatchFilter(predicate, classIndex: classIndex)
    filter.readsLeaves = options.readsLeaves
    let source = GroupQuerySource(group: group, schema: schema.schema)
    let filterColumns = propertiesRead
    let schema = self.schema
    let reads = self.reads
    let lead = filter.leadingStringScan
    let after = options.startAfterKey
    // A chunk's result, its objects and how many of them matched.
    // The leaves are opened here, on the workers: the walk on the calling thread reads only
    // the inner nodes of the tree.
    let chunk: @Sendable ([LeafLocation]) throws -> (Partial, objects: Int, matched: Int) = { [filter] leaves in
      var ctx = QueryContext(source: source, schema: schema, reads: reads)
      var partial = initial()
      var objects = 0
      var matched = 0
      // A leaf whose string column rules the condition out is skipped after one loop over
      // that column, while few leaves have a match (otherwise every leaf is read twice).
      var looked = 0
      var kept = 0
      var scratch: (all: [Bool], out: [Bool]) = ([], [])
      let leadColumn = lead.flatMap { LeafColumnReader(group, table: table, property: $0.property) }
      for (n, leaf) in leaves.enumerated() {
        guard let range = try group.objectRange(at: leaf) else { continue }
        objects &+= range.count
        if let lead, let leadColumn, looked < 8 || kept * 4 < looked {
          looked += 1
          // The next leaves load while this one is compared: the cluster leaf after next, and
          // the next one's column.
          if n &+ 2 < leaves.count { leadColumn.prefetchLeaf(leaves[n &+ 2]) }
          if n &+ 1 < leaves.count { leadColumn.prefetchColumn(leaves[n &+ 1]) }
          if try QueryBatchFilter.rulesOut(range, lead.scan, in: leadColumn, scratch: &scratch) {
            if let progress {
              progress.add(range.count)
              if progress.isCancelled { throw ProgressCancelled() }
            }
            continue
          }
          kept += 1
        }
        try group.forEachSelectionBatch(in: range, filterColumns: filterColumns) { batch in
          if let progress {
            progress.add(batch.count)
            if progress.isCancelled { throw ProgressCancelled() }
          }
          var selected = try filter.select(batch, &ctx)
          if let after, !selected.isEmpty, batch.key(0) <= after { selected.removeAll { batch.key($0) <= after } }
          matched &+= selected.count
          if !selected.isEmpty { try work(batch, selected, &partial) }
        }
      }
      return (partial, objects, matched)
    }
    let workers = options.parallel ? OrderedParallelMap<Int, Int>.processorCount : 1
    let pipeline = workers > 1 ? OrderedParallelMap(window: 2 * workers + 2, transform: chunk) : nil
    // Workers may still run when an error ends the loop: wait for them before returning.
    defer { pipeline?.waitForWorkers() }
    let smallest = max(options.chunkObjects, 1)
    let largest = max(smallest, min(options.largestChunkObjects, smallest &* 16))
    var target = smallest
    func consumeChunk(_ result: (Partial, objects: Int, matched: Int)) throws {
      target = result.matched &* 64 < result.objects ? min(target &* 2, largest) : smallest
      try consume(result.0)
    }
    func submit(_ leaves: [LeafLocation]) throws {
      if let pipeline {
        try pipeline.submit(leaves, consume: consumeChunk)
      } else {
        try consumeChunk(try chunk(leaves))
      }
    }
    var leaves: [LeafLocation] = []
    var objects = 0
    var sinceRelease = 0
    // With a start key, a leaf is held back until the next one's first key shows whether it
    // holds keys past the start: every key of a leaf is below the next leaf's offset.
    var held: LeafLocation?
    try group.forEachLeafLocation(in: table) { next in
      var location = next
      if let after {
        let previous = held
        held = next
        guard let previous else { return }
        if next.firstKeyBound <= after &+ 1 && after < Int64.max { return }
        location = previous
      }
      let leaf = location
      leaves.append(leaf)
      objects += leaf.expectedCount
      if objects >= target {
        try submit(leaves)
        leaves.removeAll(keepingCapacity: true)
        sinceRelease += objects
        objects = 0
        // A scan reads a few columns, but the kernel maps the pages around them too: give the
        // touched pages back now and then, so a scan of a large file stays small in memory.
        if sinceRelease >= options.releaseObjects {
          group.reader.releaseResidentPages()
          sinceRelease = 0
        }
      }
    }
    if let held { leaves.append(held) }
    if !leaves.isEmpty { try submit(leaves) }
    try pipeline?.finish(consume: consumeChunk)
  }

  /// The number of matching objects of a scan; no object is decoded.
  func scannedCount(_ group: Group, _ table: Table, options: ScanOptions, progress: ProgressCounter?) throws -> Int {
    var total = 0
    try scan(
      group, table, options: options, progress: progress, initial: { 0 },
      work: { _, selected, n in n += selected.count }, consume: { total += $0 })
    return total
  }

  /// The key of each matching object of a scan, in key order; no object is decoded.
  func scannedKeys(_ group: Group, _ table: Table, progress: ProgressCounter?, _ body: (_ key: Int64) throws -> Void) throws {
    try scan(
      group, table, options: scanOptions, progress: progress, initial: { [Int64]() },
      work: { batch, selected, keys in for i in selected { keys.append(batch.key(i)) } },
      consume: { keys in for key in keys { try body(key) } })
  }

  /// The key and values (`columns`; nil for all) of each matching object of a scan, in key
  /// order; only the matching objects are decoded, on the scanning threads.
  func scannedObjects(
    _ group: Group, _ table: Table, columns: Set<Int>?, options: ScanOptions, progress: ProgressCounter?,
    _ body: (_ key: Int64, _ values: [RealmValue]) throws -> Void
  ) throws {
    var chunkOptions = options
    // Decoded objects wait for their turn: smaller chunks keep that memory small.
    chunkOptions.chunkObjects = min(options.chunkObjects, 4096)
    chunkOptions.largestChunkObjects = min(options.largestChunkObjects, 8192)
    try scan(
      group, table, options: chunkOptions, progress: progress, initial: { [(Int64, [RealmValue])]() },
      work: { batch, selected, out in
        try batch.forEachObject(selected, columns: columns) { key, values in out.append((key, values)) }
      },
      consume: { objects in for (key, values) in objects { try body(key, values) } })
  }
}

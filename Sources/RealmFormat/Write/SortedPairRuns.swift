/// Two 64-bit words: a search index entry (its order key and object key) or a backlink
/// (target key and origin key).
struct WordPair: Equatable {
  var first: UInt64
  var second: UInt64
}

/// Collects ``WordPair``s and gives them back sorted, holding at most one run of them in
/// memory: each full run is sorted and appended to a ``ScratchStorage``, and the runs are
/// merged when read (an external merge sort). So a builder's memory for the index entries and
/// backlinks of ten million objects is that of a few hundred thousand.
///
/// The order is by `first`, then (with `bySecond`) by `second`. Pairs equal in that order
/// keep the order they were appended in (the sort is stable), as backlinks of one target keep
/// the order their links were seen in.
struct SortedPairRuns {
  let scratch: any ScratchStorage
  let bySecond: Bool
  let runLength: Int
  /// The pairs of the run being filled (sorted once ``sortPending()`` ran).
  private(set) var pending: [WordPair] = []
  private var pendingSorted = true
  /// The runs in scratch space, in the order they were written.
  private(set) var runs: [(offset: Int, count: Int)] = []
  /// Number of pairs.
  private(set) var count = 0

  /// Pairs sorted in memory at a time: the scratch space's ``ScratchStorage/entriesPerRun``.
  init(scratch: any ScratchStorage, bySecond: Bool) {
    self.scratch = scratch
    self.bySecond = bySecond
    runLength = max(scratch.entriesPerRun, 1)
  }

  /// Adds a pair.
  mutating func append(_ pair: WordPair) {
    if pending.isEmpty { pending.reserveCapacity(min(runLength, 1024)) }
    pending.append(pair)
    pendingSorted = pending.count == 1
    count += 1
    if pending.count == runLength { spill() }
  }

  private mutating func spill() {
    sortPending()
    let offset = pending.withUnsafeBytes { scratch.append($0) }
    runs.append((offset, pending.count))
    pending.removeAll(keepingCapacity: true)
  }

  /// Sorts the pairs still in memory; ``merged()`` needs it.
  mutating func sortPending() {
    guard !pendingSorted else { return }
    PairRadixSort.sort(&pending, bySecond: bySecond)
    pendingSorted = true
  }

  /// Every pair, in order. ``sortPending()`` must have run since the last append.
  func merged() -> PairMerge {
    precondition(pendingSorted, "sortPending() must run before merged()")
    return PairMerge(self)
  }
}

/// Reads the runs of a ``SortedPairRuns`` merged into one sorted sequence: a buffer of each
/// run in memory, and a heap of runs ordered by their next pair (ties go to the earlier run,
/// which keeps the sort stable).
struct PairMerge {
  /// Pairs read from scratch space at a time, per run.
  static let chunk = 4096

  private struct Source {
    var buffer: [WordPair]
    var position = 0
    var nextOffset: Int
    var remaining: Int
  }

  private let scratch: any ScratchStorage
  private let bySecond: Bool
  private var sources: [Source] = []
  private var heap: [Int] = []

  init(_ runs: SortedPairRuns) {
    scratch = runs.scratch
    bySecond = runs.bySecond
    for run in runs.runs {
      var s = Source(buffer: [], nextOffset: run.offset, remaining: run.count)
      Self.refill(&s, from: scratch)
      sources.append(s)
    }
    if !runs.pending.isEmpty {
      sources.append(Source(buffer: runs.pending, nextOffset: 0, remaining: 0))
    }
    heap = Array(sources.indices)
    var i = heap.count / 2
    while i > 0 {
      i -= 1
      siftDown(i)
    }
  }

  private static func refill(_ s: inout Source, from scratch: any ScratchStorage) {
    let n = min(chunk, s.remaining)
    if s.buffer.count != n { s.buffer = [WordPair](repeating: WordPair(first: 0, second: 0), count: n) }
    s.buffer.withUnsafeMutableBytes { scratch.read(at: s.nextOffset, into: $0) }
    s.nextOffset += n * MemoryLayout<WordPair>.stride
    s.remaining -= n
    s.position = 0
  }

  /// The next pair, without consuming it; nil at the end.
  var peek: WordPair? {
    guard let s = heap.first else { return nil }
    return sources[s].buffer[sources[s].position]
  }

  /// Consumes the next pair.
  mutating func advance() {
    guard let s = heap.first else { return }
    sources[s].position += 1
    if sources[s].position == sources[s].buffer.count {
      if sources[s].remaining > 0 {
        Self.refill(&sources[s], from: scratch)
      } else {
        sources[s].buffer = []
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
      }
    }
    siftDown(0)
  }

  /// The next pair, consumed; nil at the end.
  mutating func next() -> WordPair? {
    guard let p = peek else { return nil }
    advance()
    return p
  }

  /// True when source `a`'s next pair comes before source `b`'s.
  private func before(_ a: Int, _ b: Int) -> Bool {
    let x = sources[a].buffer[sources[a].position]
    let y = sources[b].buffer[sources[b].position]
    if x.first != y.first { return x.first < y.first }
    if bySecond && x.second != y.second { return x.second < y.second }
    return a < b
  }

  private mutating func siftDown(_ start: Int) {
    var i = start
    let n = heap.count
    while true {
      let l = 2 * i + 1
      guard l < n else { return }
      var m = l
      if l + 1 < n && before(heap[l + 1], heap[l]) { m = l + 1 }
      guard before(heap[m], heap[i]) else { return }
      heap.swapAt(i, m)
      i = m
    }
  }
}

/// A stable least-significant-digit radix sort of pairs, a byte at a time, skipping the bytes
/// every pair has the same (the high bytes of small keys): a few linear passes, no comparisons.
enum PairRadixSort {
  static func sort(_ pairs: inout [WordPair], bySecond: Bool) {
    let n = pairs.count
    guard n > 1, !isSorted(pairs, bySecond: bySecond) else { return }
    // Byte histograms: digits 0-7 are the bytes of `second` (least significant first), 8-15
    // those of `first`.
    var counts = [Int](repeating: 0, count: 16 * 256)
    pairs.withUnsafeBufferPointer { p in
      counts.withUnsafeMutableBufferPointer { c in
        for pair in p {
          var f = pair.first
          var s = pair.second
          for d in 0..<8 {
            c[d * 256 + Int(s & 0xFF)] += 1
            c[(8 + d) * 256 + Int(f & 0xFF)] += 1
            s >>= 8
            f >>= 8
          }
        }
      }
    }
    var other = [WordPair](repeating: WordPair(first: 0, second: 0), count: n)
    var inOther = false
    for d in (bySecond ? 0 : 8)..<16 {
      let base = d * 256
      // Every pair has the same byte here: this pass would not move anything.
      if counts[base..<(base + 256)].contains(n) { continue }
      var offsets = [Int](repeating: 0, count: 256)
      var total = 0
      for b in 0..<256 {
        offsets[b] = total
        total += counts[base + b]
      }
      let shift = UInt64((d % 8) * 8)
      let useFirst = d >= 8
      func scatter(_ src: UnsafeBufferPointer<WordPair>, _ dst: UnsafeMutableBufferPointer<WordPair>) {
        offsets.withUnsafeMutableBufferPointer { o in
          for pair in src {
            let b = Int(((useFirst ? pair.first : pair.second) >> shift) & 0xFF)
            dst[o[b]] = pair
            o[b] += 1
          }
        }
      }
      if inOther {
        other.withUnsafeBufferPointer { src in pairs.withUnsafeMutableBufferPointer { scatter(src, $0) } }
      } else {
        pairs.withUnsafeBufferPointer { src in other.withUnsafeMutableBufferPointer { scatter(src, $0) } }
      }
      inOther.toggle()
    }
    if inOther { swap(&pairs, &other) }
  }

  static func isSorted(_ pairs: [WordPair], bySecond: Bool) -> Bool {
    pairs.withUnsafeBufferPointer { p in
      for i in 1..<p.count {
        let x = p[i - 1]
        let y = p[i]
        if x.first > y.first || (bySecond && x.first == y.first && x.second > y.second) { return false }
      }
      return true
    }
  }
}

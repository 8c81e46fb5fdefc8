import RealmFormat

/// The walk behind ``WriteTransaction/checkTree(reader:top:path:)``: visits the nodes below a
/// ref, reading each node's header and, for has-refs nodes, its elements straight from the
/// bytes (no `ArrayNode`, one loop per width: it is the whole cost of the check, on every
/// write), and marks the words where nodes start and the 8-byte words they cover.
///
/// A node whose start was marked already is reached twice (a ref to an ancestor, a shared
/// node); one covering a word already covered overlaps another node. Either is damage, so
/// every node visited covers new words: a walk visits at most logical size / 8 nodes and
/// reads as many bytes, whatever the file holds.
struct TreeWalk {
  let reader: ByteReader
  let logicalSize: Int
  /// The words nodes cover.
  private(set) var covered: WordBitmap
  /// The words where a visited node starts.
  private var starts: WordBitmap
  /// Nodes taken from the stack at a time (see ``run(from:)``).
  static let batchSize = 32

  init(reader: ByteReader, logicalSize: Int) {
    self.reader = reader
    self.logicalSize = logicalSize
    covered = WordBitmap(words: logicalSize / 8 + 1)
    starts = WordBitmap(words: logicalSize / 8 + 1)
  }

  /// Visits the node at `root` and every node below it, depth first.
  mutating func run(from root: Int) throws(FormatError) {
    var stack = [root]
    // Nodes are taken from the stack a batch at a time and their headers loaded together
    // before any is checked: the loads are independent, so the processor waits for the
    // batch's cache misses at once instead of one after another (one miss per node, scattered
    // over the file, is most of the walk's cost). A file whose bytes are produced on demand
    // (decrypted) reads each header when its node is checked, after producing its page.
    let prefetch = reader.pages == nil
    let base = reader.base
    let end = logicalSize
    var refs = [Int](repeating: 0, count: TreeWalk.batchSize)
    var headers = [UInt64](repeating: 0, count: TreeWalk.batchSize)
    while !stack.isEmpty {
      let n = min(TreeWalk.batchSize, stack.count)
      for j in 0..<n {
        let ref = stack[stack.count &- 1 &- j]
        refs[j] = ref
        if prefetch, ref & 7 == 0, ref >= 24, ref <= end &- 8 {
          headers[j] = base.loadUnaligned(fromByteOffset: ref, as: UInt64.self)
        }
      }
      stack.removeLast(n)
      for j in 0..<n {
        try visit(refs[j], header: prefetch ? headers[j] : nil, into: &stack)
      }
    }
  }

  /// Checks the node at `ref` (its header already loaded, or nil) and appends the refs among
  /// its elements to `children`.
  @inline(__always)
  private mutating func visit(_ ref: Int, header loaded: UInt64?, into children: inout [Int])
    throws(FormatError)
  {
    let logicalSize = self.logicalSize
    guard ref & 7 == 0, ref >= 24, ref <= logicalSize &- 8 else {
      throw FormatError.corrupt(
        "a ref is not 8-byte aligned or lies outside [24, \(logicalSize))", at: ref)
    }
    try reader.ensureReadable(offset: ref, count: 8)
    let base = reader.base
    let header = loaded ?? base.loadUnaligned(fromByteOffset: ref, as: UInt64.self)
    // Bytes 4-7 of the header (§2.1): flags, then the element count, big-endian.
    let flags = UInt8(truncatingIfNeeded: header >> 32)
    let count = Int(UInt8(truncatingIfNeeded: header >> 40)) << 16
      | Int(UInt8(truncatingIfNeeded: header >> 48)) << 8 | Int(UInt8(truncatingIfNeeded: header >> 56))
    let widthType = (flags >> 3) & 3
    let width = (1 << Int(flags & 7)) >> 1
    let payloadSize: Int
    switch widthType {
    case 0: payloadSize = (count &* width &+ 7) >> 3
    case 1: payloadSize = count &* width
    case 2: payloadSize = count
    default: throw FormatError.corrupt("node at \(ref) has an invalid width type", at: ref)
    }
    let size = 8 &+ ((payloadSize &+ 7) & ~7)
    guard ref <= logicalSize &- size else {
      throw FormatError.corrupt("a node extends past the logical file size \(logicalSize)", at: ref)
    }
    if starts.testAndSet(ref >> 3) {
      throw FormatError.corrupt(
        "a node is reached twice from the top: a ref to its own ancestor or a node shared by two parents",
        at: ref)
    }
    guard covered.setRange(ref >> 3, (ref &+ size) >> 3) == false else {
      throw FormatError.corrupt("the node at 0x\(String(ref, radix: 16)) overlaps another node", at: ref)
    }
    guard flags & 0x40 != 0, count > 0 else { return }
    guard widthType == 0 else {
      throw FormatError.corrupt("has-refs node at \(ref) does not use the bit width type", at: ref)
    }
    let payload = ref &+ 8
    try reader.ensureReadable(offset: payload, count: payloadSize)
    // A ref is even and non-zero; any other value (0, tagged) is no child. Widths below 8
    // hold values up to 15, which are refused as refs below 24 when even.
    @inline(__always) func consider(_ raw: Int64) {
      if raw != 0, raw & 1 == 0 { children.append(raw > 0 ? Int(raw) : Int.max & ~7) }
    }
    switch width {
    case 8:
      for i in 0..<count { consider(Int64(Int8(bitPattern: base[payload &+ i]))) }
    case 16:
      for i in 0..<count {
        consider(Int64(Int16(littleEndian: base.loadUnaligned(fromByteOffset: payload &+ (i &<< 1), as: Int16.self))))
      }
    case 32:
      // Most elements of the large has-refs nodes (a search index's) are tagged values, odd,
      // so neither a child nor zero: two of them are skipped with one 64-bit test.
      var i = 0
      while i &+ 2 <= count {
        let pair = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: payload &+ (i &<< 2), as: UInt64.self))
        if ~pair & 0x0000_0001_0000_0001 != 0 {
          consider(Int64(Int32(truncatingIfNeeded: pair)))
          consider(Int64(Int32(truncatingIfNeeded: pair >> 32)))
        }
        i &+= 2
      }
      if i < count {
        consider(Int64(Int32(littleEndian: base.loadUnaligned(fromByteOffset: payload &+ (i &<< 2), as: Int32.self))))
      }
    case 64:
      for i in 0..<count {
        consider(Int64(littleEndian: base.loadUnaligned(fromByteOffset: payload &+ (i &<< 3), as: Int64.self)))
      }
    default:
      guard width > 0 else { return }
      let perByte = 8 / width
      for i in 0..<count {
        let byte = base[payload &+ i / perByte]
        consider(Int64((byte >> UInt8((i % perByte) &* width)) & UInt8((1 << width) - 1)))
      }
    }
  }
}

/// One bit per 8-byte word of a file, with range operations a 64-bit word at a time.
struct WordBitmap {
  private var bits: [UInt64]

  init(words: Int) { bits = [UInt64](repeating: 0, count: words / 64 + 1) }

  /// Sets bit `i`; returns whether it was set already.
  @inline(__always)
  mutating func testAndSet(_ i: Int) -> Bool {
    let mask: UInt64 = 1 << UInt64(i & 63)
    let was = bits[i >> 6] & mask != 0
    bits[i >> 6] |= mask
    return was
  }

  /// The mask of bits `from..<to` of one 64-bit word (`0 <= from < to <= 64`).
  @inline(__always)
  private static func mask(_ from: Int, _ to: Int) -> UInt64 {
    let high: UInt64 = to == 64 ? ~0 : (1 << UInt64(to)) &- 1
    return high & ~((1 << UInt64(from)) &- 1)
  }

  /// Sets bits `start..<end`; returns whether any of them was set already.
  mutating func setRange(_ start: Int, _ end: Int) -> Bool {
    var any = false
    var i = start
    while i < end {
      let word = i >> 6
      let to = min(end - (word << 6), 64)
      let m = WordBitmap.mask(i & 63, to)
      any = any || bits[word] & m != 0
      bits[word] |= m
      i = (word + 1) << 6
    }
    return any
  }

  /// The first set bit of `start..<end`, nil when none is.
  func firstSet(_ start: Int, _ end: Int) -> Int? {
    var i = start
    while i < end {
      let word = i >> 6
      let to = min(end - (word << 6), 64)
      let hit = bits[word] & WordBitmap.mask(i & 63, to)
      if hit != 0 { return (word << 6) + hit.trailingZeroBitCount }
      i = (word + 1) << 6
    }
    return nil
  }
}

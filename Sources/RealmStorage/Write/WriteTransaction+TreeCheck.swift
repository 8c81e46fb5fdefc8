import RealmFormat

extension WriteTransaction {
  /// Checks, before a transaction writes anything, that the file's nodes form a tree that can
  /// be edited in place: every node reachable from the top is reached once (no ref to an
  /// ancestor or to itself, no node shared by two parents), lies inside the logical size, and
  /// overlaps neither another node nor the file's free space.
  ///
  /// A transaction frees the nodes it replaces and writes new ones into free space, so on a
  /// file that breaks these rules it would free a node twice or overwrite a live node. No
  /// Realm file does; a damaged one is refused here, while it is still untouched (a refusal
  /// later, after nodes went into free space, would leave those bytes changed), and a node
  /// freed twice afterwards is the caller's mistake (`misuse`). One walk of the nodes' headers
  /// and refs, bounded by the file's size.
  static func checkTree(reader: ByteReader, top: GroupTopState, path: String) throws(StorageError) {
    guard !top.ref.isNull else { return }
    // One bit per 8-byte word of the logical size, twice: the words where a reached node
    // starts (a node reached again is a cycle or a shared node), and the words nodes cover (a
    // node over another one, or a free chunk over a node, is damage). Marking ranges of words
    // costs a few operations per node, where sorting every node's extent cost more than the
    // walk itself on a million-object file.
    var starts = WordBitmap(words: top.logicalSize / 8 + 1)
    var covered = WordBitmap(words: top.logicalSize / 8 + 1)
    do throws(FormatError) {
      // The walk reads each node's header and, for has-refs nodes, its elements straight from
      // the bytes (no `ArrayNode`, one loop per width): it is the whole cost of the check, on
      // every write. Bounded: each node is reached once (`starts`) and covers words no other
      // node covers (`covered`), so at most logical size / 8 nodes and as many bytes.
      let logicalSize = top.logicalSize
      let base = reader.base
      var stack: [Int] = [top.ref.rawValue]
      while let ref = stack.popLast() {
        guard ref & 7 == 0, ref >= 24, ref <= logicalSize &- 8 else {
          throw FormatError.corrupt(
            "a ref is not 8-byte aligned or lies outside [24, \(logicalSize))", at: ref)
        }
        try reader.ensureReadable(offset: ref, count: 8)
        let flags = base[ref &+ 4]
        let count = Int(base[ref &+ 5]) << 16 | Int(base[ref &+ 6]) << 8 | Int(base[ref &+ 7])
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
        guard starts.testAndSet(ref >> 3) == false else {
          throw FormatError.corrupt(
            "a node is reached twice from the top: a ref to its own ancestor or a node shared by two parents",
            at: ref)
        }
        guard covered.setRange(ref >> 3, (ref &+ size) >> 3) == false else {
          throw FormatError.corrupt("the node at 0x\(String(ref, radix: 16)) overlaps another node", at: ref)
        }
        guard flags & 0x40 != 0, count > 0 else { continue }
        guard widthType == 0 else {
          throw FormatError.corrupt("has-refs node at \(ref) does not use the bit width type", at: ref)
        }
        let payload = ref &+ 8
        try reader.ensureReadable(offset: payload, count: payloadSize)
        // A ref is even and non-zero; any other value (0, tagged) is no child. Widths below 8
        // hold values up to 15, which are refused above as refs below 24 when even.
        @inline(__always) func consider(_ raw: Int64) {
          if raw != 0, raw & 1 == 0 { stack.append(raw > 0 ? Int(raw) : Int.max & ~7) }
        }
        switch width {
        case 8:
          for i in 0..<count { consider(Int64(Int8(bitPattern: base[payload &+ i]))) }
        case 16:
          for i in 0..<count { consider(Int64(Int16(littleEndian: base.loadUnaligned(fromByteOffset: payload &+ (i &<< 1), as: Int16.self)))) }
        case 32:
          // Most elements of the large has-refs nodes (a search index's) are tagged values,
          // odd, so neither a child nor zero: two of them are skipped with one 64-bit test.
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
          for i in 0..<count { consider(Int64(littleEndian: base.loadUnaligned(fromByteOffset: payload &+ (i &<< 3), as: Int64.self))) }
        default:
          let perByte = 8 / max(width, 1)
          guard width > 0 else { continue }
          for i in 0..<count {
            let byte = base[payload &+ i / perByte]
            consider(Int64((byte >> UInt8((i % perByte) &* width)) & UInt8((1 << width) - 1)))
          }
        }
      }
      for chunk in top.freeChunks where chunk.length > 0 {
        // Chunks past the logical size cover no node (the free list's own checks judge them).
        let first = max(chunk.position, 0) >> 3
        let last = min(chunk.end, top.logicalSize + 7) >> 3
        guard first < last else { continue }
        if let word = covered.firstSet(first, last) {
          throw FormatError.corrupt(
            "free-list entry \(chunk) covers the node at or before 0x\(String(word << 3, radix: 16)), which is in use",
            at: word << 3)
        }
      }
    } catch {
      throw StorageError.corrupt(path: path, error)
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

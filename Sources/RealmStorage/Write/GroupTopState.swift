import RealmFormat

/// The parts of the current group top array (§3.1) that a commit carries over or replaces.
struct GroupTopState: Sendable {
  /// The top ref (null for an empty realm).
  var ref: Ref
  /// Number of slots (0 for an empty realm).
  var size: Int
  /// Slot 2: end of the space managed by the allocator (§1.5).
  var logicalSize: Int
  /// Slot 6, or 1 when absent (`Group::get_version_and_history_info`).
  var version: UInt64
  /// Refs of the three free-list arrays (slots 3-5; null when absent).
  var freeListRefs: [Ref]
  /// The free-list entries (§3.4), unsorted as stored.
  var freeChunks: [FreeChunk]
  /// Slot 7 (0 when absent).
  var historyType: UInt64
  /// Slot 8.
  var historyRef: Ref
  /// Slot 9 (0 when absent).
  var historySchemaVersion: UInt64
  /// Slot 10 (0 when absent).
  var syncFileIdent: UInt64
  /// Slot 11 when it is a ref (the evacuation progress array), else null.
  var evacuationRef: Ref

  /// The state of an empty realm (top ref 0).
  static func empty(fileSize: Int) -> GroupTopState { GroupTopState() }

  private init() {
    ref = .null
    size = 0
    logicalSize = 24
    version = 1
    freeListRefs = [.null, .null, .null]
    freeChunks = []
    historyType = 0
    historyRef = .null
    historySchemaVersion = 0
    syncFileIdent = 0
    evacuationRef = .null
  }

  /// Reads the top array at `ref` (§3.1, §3.2 sizes 3, 5, 7, 9, 10, 11, 12).
  init(reader: ByteReader, ref: Ref) throws(FormatError) {
    let top = try ArrayNode(reader, ref)
    guard top.hasRefs, [3, 5, 7, 9, 10, 11, 12].contains(top.count) else {
      throw FormatError.corrupt(
        "the group top array at \(ref) has \(top.count) slots (expected 3, 5, 7, 9, 10, 11 or 12)",
        at: ref.rawValue)
    }
    self.ref = ref
    size = top.count
    let logical = try top.tagged(2)
    guard let logicalSize = Int(exactly: logical), logicalSize >= 24,
      logicalSize <= reader.count
    else {
      throw FormatError.corrupt(
        "the logical file size \(logical) is outside [24, \(reader.count)]", at: ref.rawValue)
    }
    self.logicalSize = logicalSize
    let storedVersion = size > 6 ? try top.tagged(6) : 0
    version = storedVersion == 0 ? 1 : storedVersion
    freeListRefs = [
      size > 3 ? try top.ref(3) : .null, size > 4 ? try top.ref(4) : .null,
      size > 5 ? try top.ref(5) : .null,
    ]
    historyType = size > 7 ? try top.tagged(7) : 0
    historyRef = size > 8 ? try top.ref(8) : .null
    historySchemaVersion = size > 9 ? try top.tagged(9) : 0
    syncFileIdent = size > 10 ? try top.tagged(10) : 0
    if size > 11, case .ref(let r) = try top.refOrTagged(11) {
      evacuationRef = r
    } else {
      evacuationRef = .null
    }
    freeChunks = try GroupTopState.readFreeList(reader: reader, refs: freeListRefs)
  }

  private static func readFreeList(reader: ByteReader, refs: [Ref]) throws(FormatError)
    -> [FreeChunk]
  {
    guard !refs[0].isNull, !refs[1].isNull else {
      guard refs[0].isNull, refs[1].isNull else {
        throw FormatError.corrupt("only one of the free-list position and length arrays is present")
      }
      return []
    }
    let positions = try ArrayNode(reader, refs[0])
    let lengths = try ArrayNode(reader, refs[1])
    let versions = refs[2].isNull ? nil : try ArrayNode(reader, refs[2])
    guard lengths.count == positions.count, versions.map({ $0.count == positions.count }) ?? true
    else {
      throw FormatError.corrupt(
        "the free-list arrays have different lengths (\(positions.count), \(lengths.count), \(versions?.count ?? positions.count))",
        at: refs[0].rawValue)
    }
    var chunks: [FreeChunk] = []
    chunks.reserveCapacity(positions.count)
    for i in 0..<positions.count {
      let p = try positions.get(i)
      let l = try lengths.get(i)
      let v = try versions?.get(i) ?? 0
      guard let position = Int(exactly: p), let length = Int(exactly: l), position >= 0,
        length >= 0,
        v >= 0
      else {
        throw FormatError.corrupt(
          "free-list entry \(i) (\(p), \(l), \(v)) is negative", at: refs[0].rawValue)
      }
      chunks.append(FreeChunk(position: position, length: length, version: UInt64(v)))
    }
    return chunks
  }
}

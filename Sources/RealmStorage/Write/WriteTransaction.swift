import RealmFormat
import RealmModel
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An in-place, atomic, durable write transaction on a Realm file (format 20, 22, 23 or 24,
/// which it keeps), using Realm's
/// own copy-on-write commit protocol (§8.2).
///
/// Nodes of the current snapshot are never modified. Callers path-copy: to change a node
/// they ``allocate(_:)-([UInt8])`` a new version of it and of every ancestor up to the group top
/// array, ``free(_:)`` the replaced originals, and finally ``commit(tableNames:tables:)``
/// with the new slots 0 and 1. The commit writes the free lists and a new top array, syncs,
/// writes the other header slot, syncs, and flips the select bit, syncs: a crash at any
/// moment leaves the old or the new version.
///
/// ```swift
/// let tx = try WriteTransaction.begin(path: "app.realm")
/// let names = try tx.allocate(newNamesNode)
/// try tx.free(oldNamesRef)
/// try tx.commit(tableNames: names, tables: oldTablesRef)
/// ```
///
/// The transaction holds the realm's lock file (``FileLock``) from ``begin(path:options:)``
/// until it ends; a realm that a Realm app has open is refused with
/// ``StorageError/Code/locked``. A transaction that is not committed is rolled back by
/// ``abort()`` (also on deinit): the grown area is truncated away and the header restored.
/// Nodes placed in free space of the current snapshot are held in memory until the commit
/// writes them, so an aborted transaction leaves the file byte for byte as it was (free
/// space included); past ``Options/heldNodesLimit`` bytes held, new nodes are appended instead.
///
/// ## Topics
/// - ``begin(path:options:)``
/// - ``allocate(_:)-([UInt8])``
/// - ``free(_:)``
/// - ``freeDeep(_:)``
/// - ``commit(tableNames:tables:)``
/// - ``abort()``
public final class WriteTransaction: @unchecked Sendable {
  /// Settings of a transaction.
  public struct Options: Sendable {
    /// Where new nodes go (default: reuse older free space, then append).
    public var freeSpace: FreeSpacePolicy = .reuseOlderFreeSpace
    /// Size of the buffer that coalesces appended nodes into one `pwrite`.
    public var writeBufferSize = 1 << 20
    /// An already-held lock to use instead of taking one (it stays held after the transaction).
    public var lock: FileLock?
    /// Plan only: nodes are kept in memory, ``WriteTransaction/commit(tableNames:tables:)``
    /// computes the new top, free lists and size and returns them, and nothing is written
    /// (the file is opened read-only; the lock is taken, so a dry run reports the same
    /// `locked` error as the real write). Memory grows with the nodes allocated.
    public var dryRun = false
    /// The most bytes of new nodes held in memory for free space they were placed in (see
    /// ``WriteTransaction``): past it, new nodes are appended instead, so memory stays bounded
    /// whatever the file's free space (the file then grows by the rest).
    public var heldNodesLimit = 64 << 20
    /// The key of an encrypted realm (nil: the file is not encrypted). The transaction reads
    /// the decrypted file and writes with Realm's encrypted page protocol.
    public var encryptionKey: EncryptionKey?
    /// Called before and after each file-changing system call (tests: crash and error injection).
    public var faultInjection: (@Sendable (FaultPoint) -> FaultAction)?
    /// Creates the default options.
    public init() {}
  }

  /// The outcome of a commit.
  public struct CommitResult: Sendable, Hashable {
    /// The new group top array.
    public var topRef: Ref
    /// The new snapshot version (old + 1).
    public var version: UInt64
    /// The new logical (and physical) file size.
    public var logicalSize: Int
    /// Number of free-list entries written.
    public var freeCount: Int
  }

  enum State { case open, committed, rolledBack }

  let file: RealmFileHandle
  let lock: FileLock
  private let ownsLock: Bool
  var header: HeaderState
  let originalHeader: HeaderState
  let oldTop: GroupTopState
  var allocator: SpaceAllocator
  var buffer: WriteBuffer
  var state = State.open
  /// The streaming form was converted in this transaction (undone on rollback).
  var convertedStreaming = false
  /// `top_ref[1-s]` was written (restored on rollback).
  var wroteHeaderSlot = false
  /// The select-bit write was issued: from here on, the file may hold the new version.
  var issuedFlip = false
  /// Largest offset written so far (to know whether the file grew).
  var highWater: Int
  /// ``Options/dryRun``: nothing is written.
  let isDryRun: Bool
  /// The first error of ``append(_:)``, rethrown by every later call.
  var deferredError: StorageError?
  /// Positions freed so far (a second free of the same node is the caller's bug).
  var freedPositions: Set<Int> = []
  /// Nodes not written yet, by position: every node of a dry run; in a real run, the nodes
  /// placed in free space of the current snapshot (written by the commit, so that an abort
  /// leaves that space as it was). Nodes appended past the old end are written at once (an
  /// abort truncates them away).
  var heldNodes: [Int: [UInt8]] = [:]
  /// Bytes of ``heldNodes`` in a real run.
  var heldBytes = 0
  /// ``Options/heldNodesLimit``.
  let heldNodesLimit: Int

  /// The bytes of the file as it was at `begin` (the current snapshot). Valid until the
  /// transaction ends; reads of nodes of the current snapshot stay valid throughout.
  public var reader: ByteReader { file.reader }
  /// The path of the realm.
  public var path: String { file.path }
  /// The live top ref (null for an empty realm).
  public var topRef: Ref { oldTop.ref }
  /// The live group top array (nil for an empty realm).
  public var top: ArrayNode? { oldTop.ref.isNull ? nil : try? ArrayNode(file.reader, oldTop.ref) }
  /// The current snapshot version; the commit produces `snapshotVersion + 1`.
  public var snapshotVersion: UInt64 { oldTop.version }
  /// The file format version of the current snapshot (20, 22, 23 or 24, or 0 for an empty
  /// realm); the commit keeps it.
  public var fileFormat: Int { Int(header.currentFormat) }
  /// The current logical file size (§1.5).
  public var logicalSize: Int { oldTop.logicalSize }

  /// Opens `path` read-write, takes its lock and reads the header and group top array.
  ///
  /// - Throws: ``StorageError/Code/locked`` when another process has the realm open;
  ///   ``StorageError/Code/corrupt`` for an invalid file; ``StorageError/Code/unsupported``
  ///   for file formats other than 20, 22, 23 and 24 and for sync histories; I/O errors.
  public static func begin(path: String, options: Options = Options()) throws(StorageError)
    -> WriteTransaction
  {
    // Refuse a missing realm before the lock file would be created beside it.
    guard access(path, F_OK) == 0 else {
      throw StorageError.system("open", path: path, errno: errno)
    }
    let lock: FileLock
    if let given = options.lock {
      lock = given
    } else {
      lock = try FileLock(exclusiveForRealmAt: path)
    }
    guard lock.isHeld, lock.realmPath == path else {
      throw StorageError.misuse(
        "the lock passed to WriteTransaction.begin is not held for '\(path)'")
    }
    let file = try RealmFileHandle(path: path, readOnly: options.dryRun, key: options.encryptionKey)
    file.faultInjection = options.faultInjection
    return try WriteTransaction(
      file: file, lock: lock, ownsLock: options.lock == nil, options: options)
  }

  /// Begins a transaction on a realm already open for an edit (`RealmFile.open(path:key:forWriting:)`),
  /// through the descriptor it was read through: the file is not opened again, and the
  /// transaction reads the same bytes (``reader`` is the group's). `options.lock` must be the
  /// realm's lock, held since before the file was opened; the key is `options.encryptionKey`.
  ///
  /// - Throws: as ``begin(path:options:)``, and the error of opening the file read-write
  ///   when it was opened read-only (`MappedFile.writeRefusal`).
  package static func begin(file: RealmFile, options: Options) throws(StorageError) -> WriteTransaction {
    guard let lock = options.lock, lock.isHeld, lock.realmPath == file.path else {
      throw StorageError.misuse("a transaction on an open realm needs the realm's lock, held: '\(file.path)'")
    }
    let handle = try RealmFileHandle(file: file, key: options.encryptionKey, readOnly: options.dryRun)
    handle.faultInjection = options.faultInjection
    return try WriteTransaction(file: handle, lock: lock, ownsLock: false, options: options)
  }

  private init(file: RealmFileHandle, lock: FileLock, ownsLock: Bool, options: Options)
    throws(StorageError)
  {
    self.file = file
    self.lock = lock
    self.ownsLock = ownsLock
    let path = file.path
    let header: HeaderState
    let top: GroupTopState
    do throws(FormatError) {
      header = try HeaderState(reader: file.reader)
      let topRef = Ref(try checkedInt(header.currentTop, "top ref"))
      top =
        topRef.isNull
        ? .empty(fileSize: file.originalSize) : try GroupTopState(reader: file.reader, ref: topRef)
    } catch {
      throw StorageError.from(error, path: path)
    }
    try WriteTransaction.checkWritable(header: header, top: top, path: path)
    self.header = header
    originalHeader = header
    oldTop = top
    if case .failure(let error) = normalizeFreeList(top.freeChunks, logicalSize: top.logicalSize) {
      throw StorageError.corrupt(path: path, error)
    }
    // Before anything is written: after this check, a node freed twice is the caller's mistake.
    try WriteTransaction.checkTree(reader: file.reader, top: top, path: path)
    // New space starts past both the logical end and the physical end (the streaming footer
    // or any slack stays untouched, so a rollback can restore the file byte for byte).
    let appendStart = (max(top.logicalSize, file.originalSize) + 7) & ~7
    let reuseLimit: UInt64? = options.freeSpace == .reuseOlderFreeSpace ? top.version : nil
    allocator = SpaceAllocator(
      oldFree: top.freeChunks, reuseBelowVersion: reuseLimit, appendStart: appendStart)
    buffer = WriteBuffer(capacity: options.writeBufferSize)
    highWater = file.originalSize
    isDryRun = options.dryRun
    heldNodesLimit = options.heldNodesLimit
  }

  deinit {
    if state == .open { abort() }
    if ownsLock { lock.release() }
  }

  private static func checkWritable(header: HeaderState, top: GroupTopState, path: String)
    throws(StorageError)
  {
    // The formats realmctl writes are written in place in their own format (the commit keeps
    // the format byte); others must be rewritten first.
    let format = header.currentFormat
    let writable = WritableFileFormat(rawValue: Int(format)) != nil
    if top.ref.isNull {
      guard format == 0 || writable else {
        throw StorageError.unsupported(
          path: path, "an empty realm with file format \(format) is not writable (only 20, 22, 23, 24)")
      }
    } else if !writable {
      throw StorageError.unsupported(
        path: path,
        "file format \(format) must be rewritten as format 20, 22, 23 or 24 before it can be written in place"
      )
    }
    switch top.historyType {
    case 0, 2: break
    case 3, 4:
      throw StorageError.unsupported(
        path: path,
        "the realm has a sync history (type \(top.historyType)); writing synced realms is not supported"
      )
    default:
      throw StorageError.unsupported(
        path: path, "the realm has history type \(top.historyType), which is not supported")
    }
  }

  // MARK: - Allocation

  /// Writes a new node and returns its ref.
  ///
  /// `node` must be one complete node: a valid header (§2.1) and exactly `byteSize` bytes
  /// (payload padded to 8). It is placed in free space of the current snapshot or past the
  /// end of the file, never over a node of the current snapshot.
  public func allocate(_ node: UnsafeRawBufferPointer) throws(StorageError) -> Ref {
    try checkOpen()
    let size = node.count
    guard size >= 8, size & 7 == 0 else {
      throw StorageError.misuse("a node of \(size) bytes is not a multiple of 8 bytes")
    }
    let header = try WriteTransaction.decodeHeader(node)
    guard header.byteSize == size else {
      throw StorageError.misuse(
        "a node of \(size) bytes declares \(header.byteSize) bytes in its header")
    }
    // Free space is reused while what is held for it stays within the limit.
    let position = isDryRun || heldBytes + size <= heldNodesLimit ? allocator.allocate(size) : allocator.append(size)
    if isDryRun || position < allocator.appendStart {
      heldNodes[position] = Array(node)
      if !isDryRun { heldBytes += size }
      return Ref(position)
    }
    try prepareForWriting()
    try buffer.write(node, at: position, to: file, stage: .nodes)
    highWater = max(highWater, position + size)
    return Ref(position)
  }

  /// Writes a new node without throwing, for encoders that write through a non-throwing
  /// sink (the encoders' `NodeSink.append`).
  ///
  /// On failure it returns `Ref.null` and remembers the error; every later call of the
  /// transaction (``allocate(_:)-([UInt8])``, ``free(_:)``, ``commit(tableNames:tables:)``) throws it,
  /// so nothing built on the failed node can be committed.
  public func append(_ node: [UInt8]) -> Ref {
    guard deferredError == nil else { return .null }
    do {
      return try allocate(node)
    } catch {
      deferredError = error
      return .null
    }
  }

  /// Throws the error of a failed ``append(_:)``, if any: call it after encoding through the
  /// transaction as a `NodeSink`, before using what was encoded.
  public func throwDeferredError() throws(StorageError) {
    if let deferredError { throw deferredError }
  }

  /// Writes a new node (see ``allocate(_:)-([UInt8])``).
  public func allocate(_ node: [UInt8]) throws(StorageError) -> Ref {
    try withBytes(node) { (b) throws(StorageError) in try allocate(b) }
  }

  /// Decodes the 8-byte header at the start of a new node (§2.1), without copying.
  static func decodeHeader(_ node: UnsafeRawBufferPointer) throws(StorageError) -> NodeHeader {
    guard node.count >= 8 else {
      throw StorageError.misuse("a node needs at least its 8-byte header")
    }
    let flags = node[4]
    guard let widthType = NodeHeader.WidthType(rawValue: (flags >> 3) & 3) else {
      throw StorageError.misuse("the new node's header has an invalid width type")
    }
    return NodeHeader(
      isInner: flags & 0x80 != 0, hasRefs: flags & 0x40 != 0, contextFlag: flags & 0x20 != 0,
      widthType: widthType, width: (1 << Int(flags & 7)) >> 1,
      count: Int(node[5]) << 16 | Int(node[6]) << 8 | Int(node[7]))
  }

  // MARK: - Freeing

  /// Records that the node at `ref` is not part of the new snapshot (shallow: its children are
  /// not touched). Its space becomes free with the new version; it is not reused before the
  /// commit, since the current snapshot still refers to it.
  public func free(_ ref: Ref) throws(StorageError) {
    try checkOpen()
    guard !ref.isNull else { return }
    let size = try nodeSize(ref)
    guard freedPositions.insert(ref.rawValue).inserted else {
      throw StorageError.misuse("the node at \(ref) was freed twice")
    }
    if allocator.isNew(ref.rawValue) {
      // A node of this transaction: in no snapshot, free for anybody (and never written).
      if heldNodes.removeValue(forKey: ref.rawValue) != nil, !isDryRun { heldBytes -= size }
      allocator.release(FreeChunk(position: ref.rawValue, length: size, version: 0))
    } else {
      allocator.release(
        FreeChunk(position: ref.rawValue, length: size, version: oldTop.version + 1))
    }
  }

  /// Frees the node at `ref` and every node reachable from it (§1.4: every even non-zero
  /// element of a has-refs array). Only for nodes of the current snapshot.
  public func freeDeep(_ ref: Ref) throws(StorageError) {
    try checkOpen()
    guard !ref.isNull else { return }
    guard !allocator.isNew(ref.rawValue) else {
      throw StorageError.misuse("freeDeep(\(ref)) on a node written in this transaction")
    }
    let version = oldTop.version + 1
    var chunks: [FreeChunk] = []
    do throws(FormatError) {
      var walk = NodeWalk(reader: file.reader)
      walk.maxNodes = max(1, oldTop.logicalSize / 8)
      try walk.walk(ref) { (r, size) throws(FormatError) in
        guard r.rawValue <= oldTop.logicalSize - size else {
          throw FormatError.corrupt(
            "node at \(r) extends past the logical file size", at: r.rawValue)
        }
        chunks.append(FreeChunk(position: r.rawValue, length: size, version: version))
      }
    } catch {
      throw StorageError.corrupt(path: path, error)
    }
    for chunk in chunks {
      guard freedPositions.insert(chunk.position).inserted else {
        throw StorageError.misuse("the node at \(chunk.position) was freed twice")
      }
      allocator.release(chunk)
    }
  }

  /// Size of the node at `ref`, from the current snapshot or from this transaction's writes.
  func nodeSize(_ ref: Ref) throws(StorageError) -> Int {
    if allocator.isNew(ref.rawValue) {
      if let node = heldNodes[ref.rawValue] { return node.count }
      if isDryRun { throw StorageError.misuse("\(ref) is not a node of this transaction") }
      var bytes = buffer.pending(at: ref.rawValue, count: 8) ?? []
      if bytes.isEmpty {
        try buffer.flush(to: file, stage: .nodes)
        bytes = try file.read(at: ref.rawValue, count: 8)
      }
      return try withBytes(bytes) { (b) throws(StorageError) in try WriteTransaction.decodeHeader(b)
      }.byteSize
    }
    do throws(FormatError) {
      let node = try ArrayNode(file.reader, ref)
      let size = node.header.byteSize
      guard ref.rawValue <= oldTop.logicalSize - size else {
        throw FormatError.corrupt(
          "node at \(ref) extends past the logical file size \(oldTop.logicalSize)",
          at: ref.rawValue)
      }
      return size
    } catch {
      throw StorageError.corrupt(path: path, error)
    }
  }

  /// Releases the lock when the transaction took it itself.
  func finish() {
    if ownsLock { lock.release() }
  }

  func checkOpen() throws(StorageError) {
    guard state == .open else {
      throw StorageError.misuse("the write transaction on '\(path)' has already ended")
    }
    if let deferredError { throw deferredError }
  }
}

/// A transaction is where the encoders of an in-place edit place their nodes.
extension WriteTransaction: NodeSink {}

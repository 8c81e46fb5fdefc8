/// Checked, position-independent access to a range of bytes (usually a memory-mapped file).
///
/// The single chokepoint for raw memory in the reader: every read is bounds-checked and
/// throws ``FormatError`` instead of trapping. `ByteReader` does not own the memory; `owner`
/// keeps the mapping (or array) alive as long as any reader refers to it.
///
/// The bytes may be produced lazily (``pages``: the decrypted pages of an encrypted file).
/// Every checked read, and ``ArrayNode``'s validation of a node's whole range, makes its bytes
/// readable first, so code that reads through these methods or through a validated node never
/// sees a page that was not produced. Code that reads ``base`` directly must first call
/// ``ensureReadable(offset:count:)`` (or stay inside a validated node).
public struct ByteReader: @unchecked Sendable {
  /// The bytes. Valid while `owner` is alive; with ``pages``, only ranges made readable.
  public let base: UnsafeRawBufferPointer
  /// Keeps the storage of `base` alive (the ``LazyPages`` when the bytes are produced lazily).
  public let owner: AnyObject?
  /// True when `owner` is a ``LazyPages`` whose pages are produced on first access. A flag,
  /// not a second reference: readers are copied in the innermost loops, and a second
  /// reference-counted field would cost every copy of every reader, encrypted or not.
  @usableFromInline let isLazy: Bool

  /// Pages produced on first access (nil: every byte is readable).
  @inlinable
  public var pages: LazyPages? {
    guard isLazy, let owner else { return nil }
    return unsafeDowncast(owner, to: LazyPages.self)
  }

  /// Number of readable bytes.
  @inlinable public var count: Int { base.count }

  /// Wraps memory kept alive by `owner`.
  public init(base: UnsafeRawBufferPointer, owner: AnyObject?) {
    self.base = base
    self.owner = owner
    self.isLazy = false
  }

  /// Wraps memory whose pages `pages` produces on first access (`pages` covers `base` and
  /// keeps it alive: its producer owns the memory, so no separate owner is kept).
  public init(base: UnsafeRawBufferPointer, pages: LazyPages) {
    self.base = base
    self.owner = pages
    self.isLazy = true
  }

  /// Copies `bytes` into a heap buffer owned by the reader (tests, small files).
  public init(bytes: [UInt8]) {
    let box = ByteBox(bytes)
    self.base = UnsafeRawBufferPointer(start: box.pointer.baseAddress, count: bytes.count)
    self.owner = box
    self.isLazy = false
  }

  /// The same bytes without a reference to their owner, for a walk that keeps the owner
  /// alive itself (it holds the group it reads): copies of it, which every node and leaf
  /// accessor makes, then cost no reference counting, on which threads reading the same file
  /// at once would contend. A lazy reader is its own: its pages are produced through it.
  var unretained: ByteReader { isLazy ? self : ByteReader(base: base, owner: nil) }

  /// True when `count` bytes at `offset` are inside the data. Never overflows.
  @inlinable
  public func contains(offset: Int, count n: Int) -> Bool {
    offset >= 0 && n >= 0 && offset <= base.count &- n
  }

  @inlinable
  func check(_ offset: Int, _ n: Int) throws(FormatError) {
    guard contains(offset: offset, count: n) else {
      throw FormatError.truncated(at: offset, needed: n, size: base.count)
    }
    if isLazy { try unsafeDowncast(owner.unsafelyUnwrapped, to: LazyPages.self).prepare(offset: offset, count: n) }
  }

  /// Makes `count` bytes at `offset` readable (produces their pages), after checking that they
  /// are inside the data. Callers that read ``base`` directly call this first.
  @inlinable
  public func ensureReadable(offset: Int, count n: Int) throws(FormatError) {
    try check(offset, n)
  }

  /// Produces the pages of a range already known to be inside the data (see ``ArrayNode``).
  @inlinable
  func prepare(_ offset: Int, _ n: Int) throws(FormatError) {
    if isLazy { try unsafeDowncast(owner.unsafelyUnwrapped, to: LazyPages.self).prepare(offset: offset, count: n) }
  }

  /// Byte at `offset`.
  @inlinable
  public func uint8(at offset: Int) throws(FormatError) -> UInt8 {
    try check(offset, 1)
    return base[offset]
  }

  /// Little-endian `UInt16` at `offset`.
  @inlinable
  public func uint16(at offset: Int) throws(FormatError) -> UInt16 {
    try check(offset, 2)
    return UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }

  /// Little-endian `UInt32` at `offset`.
  @inlinable
  public func uint32(at offset: Int) throws(FormatError) -> UInt32 {
    try check(offset, 4)
    return UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }

  /// Little-endian `UInt64` at `offset`.
  @inlinable
  public func uint64(at offset: Int) throws(FormatError) -> UInt64 {
    try check(offset, 8)
    return UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// A view of `count` bytes at `offset`.
  @inlinable
  public func bytes(at offset: Int, count n: Int) throws(FormatError) -> UnsafeRawBufferPointer {
    try check(offset, n)
    return UnsafeRawBufferPointer(rebasing: base[offset..<(offset + n)])
  }

  /// A copy of `count` bytes at `offset`.
  public func array(at offset: Int, count n: Int) throws(FormatError) -> [UInt8] {
    Array(try bytes(at: offset, count: n))
  }

  // MARK: - Unchecked reads (callers have validated the range once, see ArrayNode)

  @inlinable
  func uncheckedUInt64(at offset: Int) -> UInt64 {
    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }
  @inlinable
  func uncheckedUInt32(at offset: Int) -> UInt32 {
    UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
  }
  @inlinable
  func uncheckedUInt16(at offset: Int) -> UInt16 {
    UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
  }
  @inlinable
  func uncheckedUInt8(at offset: Int) -> UInt8 { base[offset] }
}

/// Heap storage for ``ByteReader/init(bytes:)``.
final class ByteBox: @unchecked Sendable {
  let pointer: UnsafeMutableRawBufferPointer
  init(_ bytes: [UInt8]) {
    pointer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
    bytes.withUnsafeBytes { src in
      if let s = src.baseAddress, let d = pointer.baseAddress { d.copyMemory(from: s, byteCount: src.count) }
    }
  }
  deinit { pointer.deallocate() }
}

/// The owner of mapped bytes that can give back the pages a long read has touched: the
/// bytes stay valid and read the same, and the next access maps them again from the page
/// cache. Only memory that is a read-only image of a file may conform (never decrypted or
/// otherwise produced bytes, which would be lost).
public protocol ResidentPageReleasing: AnyObject {
  /// Drops the pages of the mapping from this process's resident set.
  func releaseResidentPages()
}

extension ByteReader {
  /// Gives back the pages a long read has touched when the owner can (a mapped file); does
  /// nothing otherwise. Scans of a whole table call it as they go, so their resident memory
  /// stays small on files larger than memory should hold.
  public func releaseResidentPages() {
    guard !isLazy, let owner = owner as? any ResidentPageReleasing else { return }
    owner.releaseResidentPages()
  }
}

/// Space for data a file builder collects per object and needs again only at the end (the
/// sorted runs of search index entries and backlinks), so that its memory does not grow with
/// the number of objects. Offsets count from 0 in the order bytes were appended.
///
/// Methods do not throw (like ``NodeSink/append(_:)``): an implementation that can fail keeps
/// its first error for its owner to report; reads after a failure give unspecified bytes.
public protocol ScratchStorage: AnyObject {
  /// Appends `bytes` and returns the offset of the first.
  func append(_ bytes: UnsafeRawBufferPointer) -> Int
  /// Fills `buffer` with the bytes at `offset` (appended earlier).
  func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer)
  /// How many 16-byte entries a builder keeps in memory per sorted run before it writes them
  /// here.
  var entriesPerRun: Int { get }
}

extension ScratchStorage {
  /// 262,144 entries: 4 MiB (and as much again while a run is sorted).
  public var entriesPerRun: Int { 1 << 18 }
}

/// Scratch space in memory: the default, for files built in memory and for tests.
public final class MemoryScratchStorage: ScratchStorage {
  private var bytes: [UInt8] = []
  /// How many entries a builder sorts at a time (small ones make tests merge many runs).
  public let entriesPerRun: Int

  /// Creates an empty space.
  public init(entriesPerRun: Int = 1 << 18) {
    self.entriesPerRun = entriesPerRun
  }

  /// Appends `bytes` and returns the offset of the first.
  public func append(_ bytes: UnsafeRawBufferPointer) -> Int {
    let offset = self.bytes.count
    self.bytes.append(contentsOf: bytes)
    return offset
  }

  /// Fills `buffer` with the bytes at `offset`.
  public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) {
    bytes.withUnsafeBytes { b in
      buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: b[offset..<(offset + buffer.count)]))
    }
  }
}

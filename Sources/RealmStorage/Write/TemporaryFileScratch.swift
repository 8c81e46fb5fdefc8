#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RealmFormat

/// Scratch space for a file builder (``ScratchStorage``) in a temporary file, removed from
/// its directory as soon as it is open: nothing is left behind, even after kill -9. Its
/// bytes go through the page cache, not the process's memory.
///
/// The first I/O error is kept in ``failure`` (``ScratchStorage`` methods do not throw);
/// whoever reads the builder's output must check it.
public final class TemporaryFileScratch: ScratchStorage {
  private let fd: Int32
  private let path: String
  private var size = 0
  /// The first write or read error, if any.
  public private(set) var failure: StorageError?

  /// Opens a new, already unlinked, temporary file in `directory`.
  public init(directory: String) throws(StorageError) {
    var template = Array(((directory.isEmpty ? "." : directory) + "/.realmctl-scratch-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
      guard let base = buffer.baseAddress else { return -1 }
      return mkstemp(base)
    }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard fd >= 0 else { throw StorageError.system("mkstemp", path: path, errno: errno) }
    unlink(path)
    self.fd = fd
    self.path = path
  }

  /// A scratch file beside `file` (in its directory).
  public convenience init(besideFile file: String) throws(StorageError) {
    let directory = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
    try self.init(directory: directory.isEmpty ? "/" : directory)
  }

  deinit { close(fd) }

  /// Appends `bytes` and returns the offset of the first.
  public func append(_ bytes: UnsafeRawBufferPointer) -> Int {
    let offset = size
    size += bytes.count
    if failure == nil {
      do throws(StorageError) {
        try writeFully(fd, bytes, at: offset, path: path)
      } catch {
        failure = error
      }
    }
    return offset
  }

  /// Fills `buffer` with the bytes at `offset` (zeros after a failure).
  public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    guard failure == nil else {
      buffer.initializeMemory(as: UInt8.self, repeating: 0)
      return
    }
    do throws(StorageError) {
      let done = try readFully(fd, into: base, count: buffer.count, at: offset, path: path)
      if done != buffer.count { failure = StorageError.system("pread", path: path, errno: EIO) }
    } catch {
      failure = error
    }
  }
}

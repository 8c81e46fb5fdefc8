#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import RealmJSON
import RealmModel
import RealmStorage

/// Reads a file line by line in chunks, so large JSON Lines inputs stream in constant memory.
public final class LineReader {
  let fd: Int32
  let path: String
  var buffer: [UInt8] = []
  var start = 0
  var atEnd = false
  /// 1-based number of the last line returned.
  private(set) var lineNumber = 0
  /// Counts the bytes read from the file, a chunk at a time.
  var progress: ProgressCounter?

  /// The size of the file in bytes (for a progress total), nil when unknown.
  var fileSize: Int? {
    var info = stat()
    guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return Int(info.st_size)
  }

  public init(path: String) throws(InputError) {
    fd = open(path, O_RDONLY | O_CLOEXEC)
    self.path = path
    guard fd >= 0 else {
      throw InputError(.unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(errno)))")
    }
    buffer.reserveCapacity(1 << 20)
  }

  deinit { close(fd) }

  /// The next line without its `\n` (and `\r`), nil at the end of the file.
  public func next() throws(InputError) -> ArraySlice<UInt8>? {
    while true {
      let found = buffer.withUnsafeBufferPointer { JSONLineSplitter.nextLine(in: $0, from: start) }
      if let (line, next, ended) = found, ended || atEnd {
        start = next
        lineNumber += 1
        return buffer[line]
      }
      if atEnd { return nil }
      if start > 0 {
        buffer.removeSubrange(0..<start)
        start = 0
      }
      var chunk = [UInt8](repeating: 0, count: 1 << 20)
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw InputError(.unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(errno)))")
      }
      if n == 0 { atEnd = true } else {
        buffer.append(contentsOf: chunk[0..<n])
        progress?.add(n)
      }
    }
  }
}

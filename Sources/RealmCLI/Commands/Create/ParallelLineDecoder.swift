import Dispatch
import RealmFormat
import RealmJSON

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Decodes a JSON Lines file on every core while the caller takes the objects in line order:
/// the file is read in chunks of whole lines, each chunk is parsed and decoded by a worker,
/// and the caller (the file builder, which must see objects in order) consumes finished
/// chunks one after the other.
///
/// Memory is bounded by ``window`` chunks of about ``chunkBytes`` bytes and their objects,
/// whatever the size of the input. Errors come in line order: the first bad line is the one
/// reported, as with a sequential read.
struct ParallelLineDecoder {
  let decoder: CanonicalDecoder
  let path: String
  /// Bytes read per chunk (a chunk ends at the last line break in it).
  var chunkBytes = 1 << 19
  /// Chunks in flight at most.
  var window = ParallelDump.processorCount + 2
  /// Counts the bytes read; its total is set to the file's size.
  var progress: ProgressCounter?

  /// One line's object, or the error of the first bad line of a chunk.
  private final class Slot: @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var objects: [(object: DecodedObject, line: Int)] = []
    var failure: (error: CanonicalDecodingError, line: Int)?
  }

  /// Calls `body` with every object of the file and its 1-based line number, in order.
  ///
  /// - Throws: ``RealmCtlError`` `unreadable` when the file cannot be read, `invalidInput`
  ///   for the first line that does not decode, or whatever `body` throws.
  func forEachObject(_ body: (DecodedObject, Int) throws -> Void) throws {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw RealmCtlError(.unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    if let progress {
      var info = stat()
      if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { progress.setTotal(Int(info.st_size)) }
    }
    let tasks = DispatchGroup()
    defer { tasks.wait() }
    var pending: [Slot] = []
    func consumeOldest() throws {
      let slot = pending.removeFirst()
      slot.done.wait()
      // The chunk's objects are released on a worker (the slot owns them, this thread lets
      // go of it): freeing a million value arrays is a sizeable share of the work of this
      // thread, which builds the file and paces the whole.
      defer { DispatchQueue.global().async(group: tasks) { slot.objects = [] } }
      for (object, line) in slot.objects { try body(object, line) }
      if let (error, _) = slot.failure {
        throw RealmCtlError(.invalidInput, path: path, "'\(path)' \(error)")
      }
    }
    let decoder = self.decoder
    func dispatch(_ bytes: [UInt8], firstLine: Int) throws {
      if pending.count >= window { try consumeOldest() }
      let slot = Slot()
      pending.append(slot)
      DispatchQueue.global().async(group: tasks) {
        Self.decode(bytes, firstLine: firstLine, decoder: decoder, into: slot)
        slot.done.signal()
      }
    }
    var carry: [UInt8] = []
    var line = 1
    var atEnd = false
    while !atEnd {
      var chunk = carry
      let start = chunk.count
      chunk.reserveCapacity(start + chunkBytes)
      chunk.append(contentsOf: repeatElement(0, count: chunkBytes))
      var n: Int
      repeat {
        n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress! + start, chunkBytes) }
      } while n < 0 && errno == EINTR
      if n < 0 {
        throw RealmCtlError(.unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(errno)))")
      }
      chunk.removeSubrange((start + n)...)
      progress?.add(n)
      if n == 0 {
        atEnd = true
        carry = []
      } else if let lastBreak = chunk.lastIndex(of: 0x0A) {
        carry = Array(chunk[(lastBreak + 1)...])
        chunk.removeSubrange((lastBreak + 1)...)
      } else {
        // No line break yet: the line continues in the next read.
        carry = chunk
        continue
      }
      guard !chunk.isEmpty else { continue }
      var breaks = 0
      for b in chunk where b == 0x0A { breaks += 1 }
      try dispatch(chunk, firstLine: line)
      line += breaks
    }
    while !pending.isEmpty { try consumeOldest() }
  }

  /// Decodes the lines of one chunk; stops at the first bad line.
  private static func decode(_ bytes: [UInt8], firstLine: Int, decoder: CanonicalDecoder, into slot: Slot) {
    var line = firstLine
    var start = 0
    var lastClass = -1
    // Filled locally and handed over once (no exclusivity check per object on the slot).
    var objects: [(object: DecodedObject, line: Int)] = []
    defer { slot.objects = objects }
    bytes.withUnsafeBufferPointer { all in
      while start < all.count {
        var end = start
        while end < all.count && all[end] != 0x0A { end += 1 }
        var stop = end
        if stop > start && all[stop - 1] == 0x0D { stop -= 1 }
        let text = UnsafeBufferPointer(rebasing: all[start..<stop])
        // Most lines take the fast path; the others (and every error) the full one.
        if let object = decoder.decodeSimpleLine(text, lastClass: &lastClass) {
          objects.append((object, line))
        } else if !text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
          do throws(CanonicalDecodingError) {
            objects.append((try decoder.decodeLine(Array(text), line: line), line))
          } catch {
            slot.failure = (error, line)
            return
          }
        }
        line += 1
        start = end + 1
      }
    }
  }
}

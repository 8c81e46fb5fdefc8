import Dispatch
import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage

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
  var window = OrderedParallelMap<Int, Int>.processorCount + 2
  /// Counts the bytes read; its total is set to the file's size.
  var progress: ProgressCounter?

  /// The objects of one chunk's lines, and the error of its first bad line.
  private struct Chunk {
    var objects: [(object: DecodedObject, line: Int)] = []
    var failure: (error: CanonicalDecodingError, line: Int)?
  }

  /// Calls `body` with every object of the file and its 1-based line number, in order.
  ///
  /// - Throws: ``InputError`` `unreadable` when the file cannot be read, `invalidInput`
  ///   for the first line that does not decode, or whatever `body` throws.
  func forEachObject(_ body: (DecodedObject, Int) throws -> Void) throws {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw InputError(.unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(errno)))")
    }
    defer { close(fd) }
    if let progress {
      var info = stat()
      if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG { progress.setTotal(Int(info.st_size)) }
    }
    let decoder = self.decoder
    let pipeline = OrderedParallelMap<(bytes: [UInt8], firstLine: Int), Chunk>(window: window) { input in
      Self.decode(input.bytes, firstLine: input.firstLine, decoder: decoder)
    }
    defer { pipeline.waitForWorkers() }
    let path = self.path
    func consume(_ chunk: Chunk) throws {
      // The chunk's objects are released on a worker: freeing a million value arrays is a
      // sizeable share of the work of this thread, which builds the file and paces the whole.
      nonisolated(unsafe) var objects = chunk.objects
      defer { pipeline.runDetached { objects = [] } }
      for (object, line) in objects { try body(object, line) }
      if let (error, _) = chunk.failure {
        throw InputError(.invalidInput, path: path, "'\(path)' \(error)")
      }
    }
    func dispatch(_ bytes: [UInt8], firstLine: Int) throws {
      try pipeline.submit((bytes, firstLine), consume: consume)
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
        throw InputError(.unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(errno)))")
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
    try pipeline.finish(consume: consume)
  }

  /// Decodes the lines of one chunk; stops at the first bad line.
  private static func decode(_ bytes: [UInt8], firstLine: Int, decoder: CanonicalDecoder) -> Chunk {
    var chunk = Chunk()
    var line = firstLine
    var start = 0
    var lastClass = -1
    // Filled locally and handed over once (no exclusivity check per object on the slot).
    var objects: [(object: DecodedObject, line: Int)] = []
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
            chunk.failure = (error, line)
            return
          }
        }
        line += 1
        start = end + 1
      }
    }
    chunk.objects = objects
    return chunk
  }
}

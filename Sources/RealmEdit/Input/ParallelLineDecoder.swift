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

  /// The objects of one chunk's lines, and the error of its first bad line. Line numbers
  /// count from the chunk's first line (0): the caller adds the lines of the chunks before,
  /// so the reading thread never scans the bytes for line breaks.
  private struct Chunk {
    var objects: [(object: DecodedObject, line: Int)] = []
    var failure: (error: CanonicalDecodingError, line: Int)?
    var lineCount = 0
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
    let pipeline = OrderedParallelMap<[UInt8], Chunk>(window: window) { bytes in
      Self.decode(bytes, decoder: decoder)
    }
    defer { pipeline.waitForWorkers() }
    let path = self.path
    // The 1-based number of the first line of the next chunk consumed.
    var line = 1
    func consume(_ chunk: Chunk) throws {
      // The chunk's objects are released on a worker: freeing a million value arrays is a
      // sizeable share of the work of this thread, which builds the file and paces the whole.
      nonisolated(unsafe) var objects = chunk.objects
      defer { pipeline.runDetached { objects = [] } }
      let first = line
      for (object, offset) in objects { try body(object, first + offset) }
      if let (error, offset) = chunk.failure {
        var numbered = error
        numbered.line = first + offset
        throw InputError(.invalidInput, path: path, "'\(path)' \(numbered)")
      }
      line += chunk.lineCount
    }
    var carry: [UInt8] = []
    var atEnd = false
    while !atEnd {
      let start = carry.count
      var n = 0
      // Read into uninitialized capacity after the carried partial line.
      var chunk = [UInt8](unsafeUninitializedCapacity: start + chunkBytes) { buffer, initialized in
        carry.withUnsafeBufferPointer { c in
          if let from = c.baseAddress { buffer.baseAddress!.initialize(from: from, count: start) }
        }
        repeat {
          n = read(fd, buffer.baseAddress! + start, chunkBytes)
        } while n < 0 && errno == EINTR
        initialized = start + max(n, 0)
      }
      if n < 0 {
        throw InputError(.unreadable, path: path, "Cannot read '\(path)': \(String(cString: strerror(errno)))")
      }
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
      try pipeline.submit(chunk, consume: consume)
    }
    try pipeline.finish(consume: consume)
  }

  /// Decodes the lines of one chunk, numbered from 0; stops at the first bad line.
  private static func decode(_ bytes: [UInt8], decoder: CanonicalDecoder) -> Chunk {
    var chunk = Chunk()
    var line = 0
    var start = 0
    var lastClass = -1
    // Filled locally and handed over once (no exclusivity check per object on the slot).
    var objects: [(object: DecodedObject, line: Int)] = []
    bytes.withUnsafeBufferPointer { all in
      while let (range, next, _) = JSONLineSplitter.nextLine(in: all, from: start) {
        let text = UnsafeBufferPointer(rebasing: all[range])
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
        start = next
      }
    }
    chunk.objects = objects
    chunk.lineCount = line
    return chunk
  }
}

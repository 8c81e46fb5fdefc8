/// Splits a byte stream into the lines of a JSON Lines file, chunk by chunk, so a dump can be
/// read (by `create`, `exec`) in constant memory: only the current partial line is kept.
///
/// Lines end with `\n`; a `\r` before it is dropped; blank lines are skipped (their numbers
/// still count, so errors point at the right line of the file).
public struct JSONLineSplitter: Sendable {
  /// Longest line accepted, in bytes (a guard against unbounded memory on hostile input).
  public let maxLineLength: Int
  private var partial: [UInt8] = []
  private var lineNumber = 0

  /// Creates a splitter; lines longer than `maxLineLength` bytes are an error.
  public init(maxLineLength: Int = 1 << 30) { self.maxLineLength = maxLineLength }

  /// Feeds the next chunk; `body` gets each complete, non-blank line and its 1-based number.
  public mutating func feed(
    _ chunk: [UInt8], _ body: ([UInt8], Int) throws -> Void
  ) throws {
    if let lastBreak = chunk.lastIndex(of: 0x0A) {
      let complete = partial + chunk[...lastBreak]
      partial = Array(chunk[(lastBreak + 1)...])
      try complete.withUnsafeBufferPointer { lines in
        var start = 0
        while let (line, next, _) = Self.nextLine(in: lines, from: start) {
          try emit(UnsafeBufferPointer(rebasing: lines[line]), body)
          start = next
        }
      }
    } else {
      partial.append(contentsOf: chunk)
    }
    if partial.count > maxLineLength {
      throw CanonicalDecodingError(
        line: lineNumber + 1, path: "", message: "the line is longer than \(maxLineLength) bytes")
    }
  }

  /// Ends the input: a last line without a final `\n` is passed to `body`.
  public mutating func finish(_ body: ([UInt8], Int) throws -> Void) throws {
    guard !partial.isEmpty else { return }
    let last = partial
    partial = []
    try last.withUnsafeBufferPointer { bytes in
      if let (line, _, _) = Self.nextLine(in: bytes, from: 0) { try emit(UnsafeBufferPointer(rebasing: bytes[line]), body) }
    }
  }

  private mutating func emit(_ line: UnsafeBufferPointer<UInt8>, _ body: ([UInt8], Int) throws -> Void) throws {
    lineNumber += 1
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
    if line.count > maxLineLength {
      throw CanonicalDecodingError(
        line: lineNumber, path: "", message: "the line is longer than \(maxLineLength) bytes")
    }
    try body(Array(line), lineNumber)
  }

  /// The line of `bytes` that starts at `start` (nil when `start` is at the end): its bytes
  /// without the `\n` that ends it and a `\r` before that, where the next line starts, and
  /// whether a `\n` ended it (false for the last bytes of a chunk: a line that goes on in the
  /// next, or the last line of an input without a final `\n`).
  ///
  /// The one place lines are cut: here, in `ParallelLineDecoder`'s chunks and in the shell's
  /// script reader.
  @inlinable
  public static func nextLine(
    in bytes: UnsafeBufferPointer<UInt8>, from start: Int
  ) -> (line: Range<Int>, next: Int, ended: Bool)? {
    guard start < bytes.count else { return nil }
    var end = start
    while end < bytes.count && bytes[end] != 0x0A { end += 1 }
    var stop = end
    if stop > start && bytes[stop - 1] == 0x0D { stop -= 1 }
    return end < bytes.count ? (start..<stop, end + 1, true) : (start..<stop, end, false)
  }
}

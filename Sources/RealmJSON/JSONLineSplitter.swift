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
    var start = 0
    while let newline = chunk[start...].firstIndex(of: 0x0A) {
      partial.append(contentsOf: chunk[start..<newline])
      start = newline + 1
      try emit(body)
    }
    partial.append(contentsOf: chunk[start...])
    if partial.count > maxLineLength {
      throw CanonicalDecodingError(
        line: lineNumber + 1, path: "", message: "the line is longer than \(maxLineLength) bytes")
    }
  }

  /// Ends the input: a last line without a final `\n` is passed to `body`.
  public mutating func finish(_ body: ([UInt8], Int) throws -> Void) throws {
    if !partial.isEmpty { try emit(body) }
  }

  private mutating func emit(_ body: ([UInt8], Int) throws -> Void) throws {
    lineNumber += 1
    if partial.last == 0x0D { partial.removeLast() }
    defer { partial.removeAll(keepingCapacity: true) }
    if partial.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
    if partial.count > maxLineLength {
      throw CanonicalDecodingError(
        line: lineNumber, path: "", message: "the line is longer than \(maxLineLength) bytes")
    }
    try body(partial, lineNumber)
  }
}

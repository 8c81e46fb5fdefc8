#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The lines entered before, oldest first, at most ``limit`` of them.
///
/// Empty lines, lines that repeat the previous entry, and lines starting with a space (as
/// bash's `ignorespace`) are not kept. ``load(from:)`` and ``save(to:)`` keep it in a file, one
/// entry a line, written atomically and readable by the user only.
public struct History: Sendable, Equatable {
  /// Entries, oldest first.
  public private(set) var entries: [String] = []
  /// How many entries are kept; older ones are dropped.
  public let limit: Int

  /// The default bound on entries.
  public static let defaultLimit = 1000

  /// An empty history keeping at most `limit` entries.
  public init(limit: Int = History.defaultLimit, entries: [String] = []) {
    self.limit = max(0, limit)
    for entry in entries { add(entry) }
  }

  /// Adds `line` unless it is empty, starts with a space or repeats the last entry.
  public mutating func add(_ line: String) {
    guard !line.isEmpty, line.first != " ", line.first != "\t", line != entries.last,
      !line.contains("\n")
    else { return }
    entries.append(line)
    if entries.count > limit { entries.removeFirst(entries.count - limit) }
  }

  /// The index of the newest entry before `index` containing `query`, nil when none does.
  public func search(_ query: String, before index: Int) -> Int? {
    var i = min(index, entries.count) - 1
    while i >= 0 {
      if query.isEmpty || entries[i].contains(query) { return i }
      i -= 1
    }
    return nil
  }

  // MARK: - File

  /// Reads the entries of the file at `path` (a missing or unreadable file gives none).
  public static func load(from path: String, limit: Int = History.defaultLimit) -> History {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return History(limit: limit) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    // Bounded: a history file larger than 16 MiB is read only up to there.
    while bytes.count < 1 << 24 {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    return History(limit: limit, entries: Array(lines.suffix(limit)))
  }

  /// Writes the entries to `path` (through a temporary file renamed over it, mode 0600).
  /// Returns false when the file cannot be written; a history is not worth an error.
  @discardableResult
  public func save(to path: String) -> Bool {
    let temporary = path + ".tmp-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    let bytes = Array(entries.map { $0 + "\n" }.joined().utf8)
    var written = 0
    var ok = true
    while written < bytes.count {
      let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
      if n < 0 && errno == EINTR { continue }
      if n <= 0 {
        ok = false
        break
      }
      written += n
    }
    close(fd)
    if ok && rename(temporary, path) == 0 { return true }
    unlink(temporary)
    return false
  }
}

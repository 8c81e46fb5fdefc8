#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import RealmExport
import RealmModel
import RealmStorage
import Synchronization

/// One file named on the command line, as the studio keeps it between requests: the open
/// file (reopened when it changes on disk), its key, a generation number the page watches to
/// reload itself, and what repeated requests reuse (the positions of a filter's matches).
final class StudioFile: Sendable {
  /// Its number in the API (`/api/files/ID`), in command-line order.
  let id: Int
  /// The path as given.
  let path: String
  /// The last component of the path.
  let name: String

  private let state: Mutex<State>
  /// Held while an edit runs (and while the lock is probed): one edit at a time per file.
  private let edits = Mutex<Void>(())

  /// What identifies the file's contents on disk: a write in place changes its time and size,
  /// an atomic replacement its inode.
  struct Stamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int
  }

  /// A query's matches, counted once, with the key of every ``markerStride``-th.
  struct Markers: Sendable {
    var count: Int
    var keys: [Int64]
  }

  private struct State: Sendable {
    var key: EncryptionKey?
    var browser: ObjectBrowser?
    var stamp: Stamp?
    var generation = 1
    var markers: [String: Markers] = [:]
    var resultKeys: [String: [Int64]] = [:]
  }

  /// Matches between two markers.
  static let markerStride = 256
  /// Queries whose markers are kept (the oldest is dropped).
  static let cachedQueries = 16

  init(id: Int, path: String, key: EncryptionKey?) {
    self.id = id
    self.path = path
    name = path.split(separator: "/").last.map(String.init) ?? path
    state = Mutex(State(key: key))
  }

  /// The browser of the file as it is on disk now, and its generation; the file is reopened
  /// (and the generation advanced) when it changed since the last request.
  ///
  /// - Throws: `StorageError` `encrypted` when the file needs a key the studio does not have,
  ///   or the file's own error.
  func browser() throws -> (ObjectBrowser, generation: Int) {
    let stamp = Self.stamp(path)
    return try state.withLock { s in
      if let browser = s.browser, stamp == s.stamp { return (browser, s.generation) }
      if s.stamp != nil && stamp != s.stamp { s.generation += 1 }
      s.browser = nil
      s.markers = [:]
      s.resultKeys = [:]
      s.stamp = stamp
      let file = try Self.open(path, key: s.key)
      let browser = try ObjectBrowser(file: file)
      s.browser = browser
      return (browser, s.generation)
    }
  }

  /// The generation of the file on disk now (it advances when the file changes).
  func generation() -> Int {
    let stamp = Self.stamp(path)
    return state.withLock { s in
      if s.stamp != nil && stamp != s.stamp {
        s.generation += 1
        s.stamp = stamp
        s.browser = nil
        s.markers = [:]
        s.resultKeys = [:]
      }
      return s.generation
    }
  }

  /// The key the page gave, checked by opening the file with it.
  func setKey(_ key: EncryptionKey) throws {
    let file = try RealmInput.openForSession(path, key: key)
    let browser = try ObjectBrowser(file: file)
    state.withLock { s in
      s.key = key
      s.browser = browser
      s.stamp = Self.stamp(path)
      s.markers = [:]
      s.resultKeys = [:]
      s.generation += 1
    }
  }

  /// The key the file is read with (nil for a plain file, or before the page gave it).
  var key: EncryptionKey? { state.withLock { $0.key } }

  /// The markers of `query` (by its text) in the current generation, computed by `make` once.
  func markers(for query: String, className: String, generation: Int, _ make: () throws -> Markers) throws -> Markers {
    let id = className + "\u{0}" + query
    if let found = state.withLock({ s in s.generation == generation ? s.markers[id] : nil }) { return found }
    let made = try make()
    state.withLock { s in
      guard s.generation == generation else { return }
      if s.markers.count >= Self.cachedQueries, let oldest = s.markers.keys.first { s.markers[oldest] = nil }
      s.markers[id] = made
    }
    return made
  }

  /// The keys of a query with SORT, DISTINCT or LIMIT in the current generation, computed once.
  func resultKeys(for query: String, className: String, generation: Int, _ make: () throws -> [Int64]) throws -> [Int64] {
    let id = className + "\u{0}" + query
    if let found = state.withLock({ s in s.generation == generation ? s.resultKeys[id] : nil }) { return found }
    let made = try make()
    state.withLock { s in
      guard s.generation == generation else { return }
      // One result at a time: they may be large.
      s.resultKeys = [id: made]
    }
    return made
  }

  /// Runs an edit of the file, one at a time.
  func editing<T>(_ body: () throws -> T) rethrows -> T {
    try edits.withLock { _ in try body() }
  }

  /// Opens `path` for a session; a key given for a plain file is not used for it.
  static func open(_ path: String, key: EncryptionKey?) throws -> RealmFile {
    do {
      return try RealmInput.openForSession(path, key: key)
    } catch let error as StorageError where error.code == .notEncrypted && key != nil {
      return try RealmInput.openForSession(path, key: nil)
    }
  }

  /// The stamp of the file at `path` now (nil when it cannot be read).
  static func stamp(_ path: String) -> Stamp? {
    var st = stat()
    guard stat(path, &st) == 0 else { return nil }
    #if canImport(Darwin)
      let time = st.st_mtimespec
    #else
      let time = st.st_mtim
    #endif
    return Stamp(
      device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size), seconds: Int(time.tv_sec),
      nanoseconds: Int(time.tv_nsec))
  }
}

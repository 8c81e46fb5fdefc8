import Synchronization

/// Counts, for the realms a test watches, how often this library opens the file, takes its
/// lock and copies it (a backup): what "an edit opens and locks the realm once" is checked
/// against. Nothing is counted for a path no one watches (one atomic load per open).
package enum FileAccessLog {
  /// What is counted.
  package enum Event: Sendable {
    /// `open(2)` of the realm to read or write it (`MappedFile`, the write transaction's own).
    case open
    /// Its lock taken (`FileLock`).
    case lock
    /// A copy of it made (`FileCopy`: `--backup`).
    case copy
  }

  /// The counts of one watched realm.
  package struct Counts: Sendable, Equatable {
    package var opens = 0
    package var locks = 0
    package var copies = 0

    package init(opens: Int = 0, locks: Int = 0, copies: Int = 0) {
      self.opens = opens
      self.locks = locks
      self.copies = copies
    }
  }

  private static let watched = Mutex<[String: Counts]>([:])
  private static let watching = Atomic<Int>(0)

  /// Counts the accesses to the realm at `path` from now on (from zero), until
  /// ``stopWatching(_:)``.
  package static func watch(_ path: String) {
    watched.withLock { $0[path] = Counts() }
    watching.add(1, ordering: .sequentiallyConsistent)
  }

  /// Stops counting for `path` and returns its counts.
  @discardableResult
  package static func stopWatching(_ path: String) -> Counts {
    let counts = watched.withLock { $0.removeValue(forKey: path) } ?? Counts()
    watching.subtract(1, ordering: .sequentiallyConsistent)
    return counts
  }

  /// The counts of `path` so far (zero when it is not watched).
  package static func counts(_ path: String) -> Counts {
    watched.withLock { $0[path] } ?? Counts()
  }

  static func record(_ event: Event, path: String) {
    guard watching.load(ordering: .relaxed) > 0 else { return }
    watched.withLock { all in
      guard all[path] != nil else { return }
      switch event {
      case .open: all[path]!.opens += 1
      case .lock: all[path]!.locks += 1
      case .copy: all[path]!.copies += 1
      }
    }
  }
}

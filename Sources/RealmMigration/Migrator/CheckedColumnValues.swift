import Synchronization
import RealmFormat
import RealmModel

/// The values of a class's computed columns, computed once by the check that runs before an
/// in-place column commit writes its first byte, and handed to the commit.
///
/// The column path checks everything before it writes (docs/writing.md, "Column-wise
/// transforms"): the edit is first applied into a sink that only counts, which computes and
/// encodes every value of every object exactly as the commit will; an error there leaves the
/// file untouched, byte for byte. While checking, this source keeps the values it computed,
/// cluster leaf by cluster leaf (by the leaf's first object key), up to a memory budget; the
/// commit then takes them instead of computing them again (and without decoding the columns
/// they were computed from). Leaves past the budget are computed again by the commit, with
/// the same code, from the same unchanged file.
final class CheckedColumnValues: ColumnValueSource, @unchecked Sendable {
  private struct State {
    /// True once the check is over: values are taken, not recorded.
    var committing = false
    /// Values computed by the check, by the first key of their cluster leaf.
    var kept: [Int64: [ColumnValues]] = [:]
    /// Bytes of `kept` (an estimate).
    var keptBytes = 0
    /// True when some leaf was not kept (over the budget): the commit computes it again.
    var incomplete = false
  }

  /// Computes the values while checking (counting progress).
  private let checking: any ColumnValueSource
  /// Computes the values of leaves the check did not keep (no progress: the check counted it).
  private let recomputing: any ColumnValueSource
  /// The most bytes of values kept; 0 keeps nothing.
  private let budget: Int
  private let state = Mutex(State())

  /// A source that computes with `checking` during the check and keeps up to `budget` bytes of
  /// its values for the commit, which computes the rest with `recomputing`.
  init(checking: any ColumnValueSource, recomputing: any ColumnValueSource, budget: Int) {
    self.checking = checking
    self.recomputing = recomputing
    self.budget = budget
  }

  /// The check is over: from now on the values kept are handed out. Returns false when some
  /// leaves were not kept (the commit computes them again).
  @discardableResult
  func endCheck() -> Bool {
    state.withLock {
      $0.committing = true
      return !$0.incomplete
    }
  }

  var readColumns: Set<Int>? {
    // Every leaf kept: the commit decodes nothing.
    let everyLeafKept = state.withLock { $0.committing && !$0.incomplete }
    return everyLeafKept ? [] : checking.readColumns
  }

  var allowsConcurrentCalls: Bool { checking.allowsConcurrentCalls }

  func values(keys: [Int64], columns: [ColumnValues?]) throws -> [ColumnValues] {
    guard let first = keys.first else { return try recomputing.values(keys: keys, columns: columns) }
    let committing = state.withLock { $0.committing }
    if committing {
      if let kept = state.withLock({ $0.kept.removeValue(forKey: first) }) { return kept }
      return try recomputing.values(keys: keys, columns: columns)
    }
    let values = try checking.values(keys: keys, columns: columns)
    let bytes = values.reduce(0) { $0 + Self.approximateBytes($1) }
    state.withLock { s in
      if s.keptBytes + bytes <= budget {
        s.kept[first] = values
        s.keptBytes += bytes
      } else {
        s.incomplete = true
      }
    }
    return values
  }

  /// About the memory a column's values take.
  static func approximateBytes(_ values: ColumnValues) -> Int {
    switch values {
    case .int(let c): return c.count * 8 + c.nulls.count
    case .bool(let c): return c.count + c.nulls.count
    case .double(let c): return c.count * 8 + c.nulls.count
    case .float(let c): return c.count * 4 + c.nulls.count
    case .date(let c): return c.count * MemoryLayout<Timestamp>.stride + c.nulls.count
    case .string(let c): return c.bytes.count + c.ends.count * 8 + c.nulls.count
    case .values(let v): return v.reduce(v.count * MemoryLayout<RealmValue>.stride) { $0 + Self.payloadBytes($1) }
    }
  }

  /// Bytes a value holds outside its own storage (strings, binaries, collections).
  private static func payloadBytes(_ value: RealmValue) -> Int {
    switch value {
    case .string(let s): return s.utf8.count
    case .data(let d): return d.count
    case .list(let items), .set(let items): return items.reduce(items.count * MemoryLayout<RealmValue>.stride) { $0 + payloadBytes($1) }
    case .dictionary(let entries): return entries.reduce(0) { $0 + $1.key.utf8.count + MemoryLayout<RealmValue>.stride + payloadBytes($1.value) }
    default: return 0
    }
  }
}

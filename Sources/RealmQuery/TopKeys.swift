import RealmModel
import RealmFormat

/// `SORT(p) LIMIT(k)` of one int, double or date property over a scan: the first k objects in
/// the sort order (ties in key order) kept as plain (value, key) pairs in a bounded max-heap.
/// The same objects ``TopRows`` keeps, without a row or a reference-counted value per object:
/// in a large scan most objects only meet the heap's root.
struct TopKeys: Sendable {
  /// A sort value: what ``ValueOrder/compare(_:_:)`` orders for the property's type.
  enum Value: Sendable {
    case null
    case int(Int64)
    case double(Double)
    case timestamp(Timestamp)

    /// ``ValueOrder/compare(_:_:)`` of the query values (null first).
    static func compare(_ a: Value, _ b: Value) -> Int {
      switch (a, b) {
      case (.null, .null): return 0
      case (.null, _): return -1
      case (_, .null): return 1
      case (.int(let x), .int(let y)): return x == y ? 0 : (x < y ? -1 : 1)
      case (.double(let x), .double(let y)): return ValueOrder.doubles(x, y)
      case (.timestamp(let x), .timestamp(let y)): return ValueOrder.timestamps(x, y)
      default: return 0
      }
    }

    var realmValue: RealmValue {
      switch self {
      case .null: return .null
      case .int(let x): return .int(x)
      case .double(let x): return .double(x)
      case .timestamp(let x): return .date(x)
      }
    }
  }

  struct Entry: Sendable {
    var value: Value
    var key: Int64
  }

  let capacity: Int
  let ascending: Bool
  /// A max-heap: the last entry in sort order at the root.
  private(set) var entries: [Entry] = []

  init(capacity: Int, ascending: Bool) {
    self.capacity = capacity
    self.ascending = ascending
  }

  /// True for the property types kept here (a single int, double or date, not `mixed`).
  static func handles(_ property: Property) -> Bool {
    property.collection == .single && [.int, .double, .date].contains(property.type)
  }

  mutating func insert(_ entry: Entry) {
    let ascending = self.ascending
    BoundedHeap.insert(entry, into: &entries, capacity: capacity) { a, b in
      let c = Value.compare(a.value, b.value)
      if c != 0 { return ascending ? c < 0 : c > 0 }
      return a.key < b.key
    }
  }

  /// Inserts the objects at `selected` of `batch`, with the values of `property`.
  mutating func insert(_ batch: SelectionBatch, _ selected: [Int], property: Int) throws {
    switch try batch.values(property) {
    case .int(let c)?:
      for i in selected { insert(Entry(value: c.isNull(i) ? .null : .int(c.values[i]), key: batch.key(i))) }
    case .double(let c)?:
      for i in selected { insert(Entry(value: c.isNull(i) ? .null : .double(c.values[i]), key: batch.key(i))) }
    case .date(let c)?:
      for i in selected { insert(Entry(value: c.isNull(i) ? .null : .timestamp(c.values[i]), key: batch.key(i))) }
    case let column?:
      // Decoded otherwise (a file of formats 2-9): one value at a time.
      for i in selected {
        let value: Value
        switch column.value(at: i) {
        case .int(let x): value = .int(x)
        case .double(let x): value = .double(x)
        case .date(let x): value = .timestamp(x)
        default: value = .null
        }
        insert(Entry(value: value, key: batch.key(i)))
      }
    case nil:
      for i in selected { insert(Entry(value: .null, key: batch.key(i))) }
    }
  }

  /// The entries kept as rows of `column` (for ``DescriptorExecution``), the key as the
  /// position among the matches (the scan is in key order).
  func rows(_ column: DescriptorColumn) -> [DescriptorRow] {
    entries.map { DescriptorRow(key: $0.key, index: Int($0.key), values: [column.localValue($0.value.realmValue)]) }
  }
}

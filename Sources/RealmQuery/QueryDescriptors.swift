import RealmModel

/// `SORT(...)`, `DISTINCT(...)`, `LIMIT(n)`: applied in the order written to the objects the
/// predicate selects (in key order), as Realm applies them.
enum BoundDescriptor: Sendable {
  case sort([(DescriptorColumn, ascending: Bool)])
  case distinct([DescriptorColumn])
  case limit(Int)
}

/// A property path of SORT or DISTINCT: single links (or a dictionary of links with a key),
/// then the property whose value orders the objects (a dictionary with a key gives that
/// key's value).
struct DescriptorColumn: Sendable {
  struct Link: Sendable {
    var property: Int
    var target: Int
    var dictionaryKey: String?
  }
  var links: [Link]
  var property: Int
  var dictionaryKey: String?
  var isMixed: Bool

  /// The value for `object`, or nil when a link on the way is null (such objects sort last,
  /// or first when descending, and DISTINCT drops them).
  func value(_ object: QueryObject, _ ctx: inout QueryContext) throws -> QueryValue? {
    var current = object
    for link in links {
      var v = link.property < current.values.count ? current.values[link.property] : .null
      if let k = link.dictionaryKey {
        guard case .dictionary(let entries) = v else { return nil }
        v = entries.first { $0.key == k }?.value ?? .null
      }
      guard let next = try LinkChain.resolve(v, link.target, &ctx) else { return nil }
      current = next
    }
    var v = property < current.values.count ? current.values[property] : .null
    if let k = dictionaryKey {
      guard case .dictionary(let entries) = v else { return .null }
      v = entries.first { $0.key == k }?.value ?? .null
      return .mixed(v)
    }
    return localValue(v)
  }

  /// True when the column is a property of the queried object itself (no link, no
  /// dictionary key): its value is the stored one (``localValue(_:)``).
  var isLocal: Bool { links.isEmpty && dictionaryKey == nil }

  /// The value of a column holding `v` at the end of its path.
  func localValue(_ v: RealmValue) -> QueryValue { isMixed ? .mixed(v) : .scalar(v) }
}

extension QueryBinder {
  /// Binds the descriptors, merging consecutive SORTs as Realm does (a later SORT orders
  /// first, the earlier one breaks its ties).
  func bindDescriptors(_ descriptors: [QuerySyntax.Descriptor]) throws(Located) -> [BoundDescriptor] {
    var out: [BoundDescriptor] = []
    for d in descriptors {
      switch d {
      case .limit(let text, _):
        out.append(.limit(Int(clamping: CNumber.strtoll(text))))
      case .distinct(let paths, _):
        var columns: [DescriptorColumn] = []
        for p in paths { columns.append(try bindColumn(p, clause: "distinct")) }
        out.append(.distinct(columns))
      case .sort(let items, _):
        var columns: [(DescriptorColumn, ascending: Bool)] = []
        for (p, ascending) in items { columns.append((try bindColumn(p, clause: "sort"), ascending)) }
        if case .sort(let previous)? = out.last {
          out[out.count - 1] = .sort(columns + previous)
        } else {
          out.append(.sort(columns))
        }
      }
    }
    return out
  }

  private func bindColumn(_ path: QuerySyntax.Path, clause: String) throws(Located) -> DescriptorColumn {
    if let arg = path.keyPathArgument { throw QueryConstants.argumentError(arg, path.offset) }
    var current = base
    var steps: [(cls: Int, property: Int, key: String?)] = []
    var dictionaryColumn = false
    for (n, element) in path.elements.enumerated() {
      let offset = path.offsets[n]
      let name: String
      switch element {
      case .key(let k), .quotedKey(let k): name = k
      default:
        throw .init(offset, "\(clause.uppercased())(...) takes property names and dictionary keys, not '\(element)'")
      }
      if dictionaryColumn {
        steps[steps.count - 1].key = name
        continue
      }
      let cls = schema.classes[current]
      guard let pi = cls.propertyIndex(name) else {
        let hint = Suggestion.hint(for: name, among: cls.properties.map(\.name))
        throw .init(offset, "No property '\(name)' found on object type '\(cls.name)' specified in '\(clause)' clause\(hint)")
      }
      let p = cls.properties[pi]
      reads.add(current, pi)
      steps.append((current, pi, nil))
      dictionaryColumn = p.collection == .dictionary
      if n < path.elements.count - 1, p.type == .object, let t = p.objectType.flatMap(schema.classIndex) {
        current = t
      }
    }
    guard let last = steps.last else { throw .init(path.offset, "\(clause.uppercased())(...) needs a property") }
    let lastProperty = schema.classes[last.cls].properties[last.property]
    if lastProperty.collection != .single && last.key == nil {
      throw .init(path.offset, "Cannot \(clause) on a collection property ('\(path.text)')")
    }
    var links: [DescriptorColumn.Link] = []
    for s in steps.dropLast() {
      let p = schema.classes[s.cls].properties[s.property]
      let linkOK = p.type == .object && (p.collection == .single || (p.collection == .dictionary && s.key != nil))
      guard linkOK, let t = p.objectType.flatMap(schema.classIndex) else {
        throw .init(path.offset, "All but last property must be a link ('\(path.text)': '\(p.name)' is not a single link)")
      }
      links.append(DescriptorColumn.Link(property: s.property, target: t, dictionaryKey: s.key))
    }
    return DescriptorColumn(
      links: links, property: last.property, dictionaryKey: last.key, isMixed: lastProperty.type == .mixed)
  }
}

/// One selected object while the descriptors are applied.
struct DescriptorRow {
  var key: Int64
  var index: Int
  /// The values of every descriptor column, in descriptor order (nil: a null link).
  var values: [QueryValue?]
}

enum DescriptorExecution {
  /// The columns of every SORT and DISTINCT, in descriptor order, and where each
  /// descriptor's columns start among them.
  static func columns(_ descriptors: [BoundDescriptor]) -> (columns: [DescriptorColumn], offsets: [Int]) {
    var offsets: [Int] = []
    var columns: [DescriptorColumn] = []
    for d in descriptors {
      offsets.append(columns.count)
      switch d {
      case .sort(let c): columns.append(contentsOf: c.map(\.0))
      case .distinct(let c): columns.append(contentsOf: c)
      case .limit: break
      }
    }
    return (columns, offsets)
  }

  /// Applies the descriptors to rows in key order; `offsets[i]` is where descriptor i's
  /// columns start in each row's values.
  static func apply(_ descriptors: [BoundDescriptor], to input: [DescriptorRow], offsets: [Int]) -> [Int64] {
    var rows = input
    for (i, d) in descriptors.enumerated() {
      let hasNext = i + 1 < descriptors.count
      let start = offsets[i]
      switch d {
      case .limit(let n):
        if rows.count > n { rows.removeLast(rows.count - max(0, n)) }
      case .sort(let columns):
        let ascending = columns.map(\.ascending)
        rows.sort { less($0, $1, start, ascending, total: true) }
        if hasNext { for j in rows.indices { rows[j].index = j } }
      case .distinct(let columns):
        let ascending = [Bool](repeating: true, count: columns.count)
        rows.removeAll { r in (start..<(start + columns.count)).contains { r.values[$0] == nil } }
        rows.sort { less($0, $1, start, ascending, total: true) }
        var kept: [DescriptorRow] = []
        for r in rows {
          if let last = kept.last, !less(last, r, start, ascending, total: false) { continue }
          kept.append(r)
        }
        rows = kept
        var nextIsSort = false
        if hasNext, case .sort = descriptors[i + 1] { nextIsSort = true }
        if !nextIsSort { rows.sort { $0.index < $1.index } }
      }
    }
    return rows.map(\.key)
  }

  /// Realm's sort order: column by column (null links last when ascending), then the
  /// earlier position.
  static func less(_ a: DescriptorRow, _ b: DescriptorRow, _ start: Int, _ ascending: [Bool], total: Bool) -> Bool {
    for (t, asc) in ascending.enumerated() {
      let c = order(a.values[start + t], b.values[start + t], ascending: asc)
      if c != 0 { return c < 0 }
    }
    return total ? a.index < b.index : false
  }

  /// Where `x` goes against `y` in one column's order: negative before, 0 tied, positive
  /// after (nil, a null link, last when ascending).
  static func order(_ x: QueryValue?, _ y: QueryValue?, ascending asc: Bool) -> Int {
    switch (x, y) {
    case (nil, nil): return 0
    case (nil, _): return asc ? 1 : -1
    case (_, nil): return asc ? -1 : 1
    case (let x?, let y?):
      let c = ValueOrder.compare(x, y)
      return asc ? c : -c
    }
  }
}

/// The first `capacity` rows in a SORT's order (Realm's: stable, ties in key order) among
/// all rows inserted, kept in a bounded max-heap: memory stays at `capacity` rows whatever
/// the number of matches. Applying the SORT to ``rows`` gives what sorting every row and
/// keeping the first `capacity` gives.
struct TopRows {
  /// Larger limits keep every row (the heap would not save memory).
  static let maxCount = 1 << 20
  let capacity: Int
  let ascending: [Bool]
  /// A max-heap: the last row in sort order at the root.
  private(set) var rows: [DescriptorRow] = []

  init(capacity: Int, ascending: [Bool]) {
    self.capacity = capacity
    self.ascending = ascending
  }

  /// True when a row whose first column is `value`, inserted after every row so far, would
  /// not be kept: the heap is full and its last row comes first on that column, or ties
  /// there while it is the only column (an earlier row wins a tie).
  func rejects(_ value: QueryValue?) -> Bool {
    guard capacity > 0 else { return true }
    guard rows.count >= capacity else { return false }
    let c = DescriptorExecution.order(rows[0].values[0], value, ascending: ascending[0])
    return c < 0 || (c == 0 && ascending.count == 1)
  }

  mutating func insert(_ row: DescriptorRow) {
    let ascending = self.ascending
    BoundedHeap.insert(row, into: &rows, capacity: capacity) { DescriptorExecution.less($0, $1, 0, ascending, total: true) }
  }
}

/// A bounded max-heap kept in an array: the first `capacity` elements in the order `before`
/// among all inserted, the last of them at the root (``TopRows``, ``TopKeys``).
enum BoundedHeap {
  static func insert<Element>(
    _ element: Element, into heap: inout [Element], capacity: Int, before: (Element, Element) -> Bool
  ) {
    guard capacity > 0 else { return }
    if heap.count < capacity {
      heap.append(element)
      var i = heap.count - 1
      while i > 0 {
        let parent = (i - 1) / 2
        guard before(heap[parent], heap[i]) else { break }
        heap.swapAt(parent, i)
        i = parent
      }
      return
    }
    guard before(element, heap[0]) else { return }
    heap[0] = element
    var i = 0
    while true {
      let l = 2 * i + 1
      let r = l + 1
      var largest = i
      if l < heap.count, before(heap[largest], heap[l]) { largest = l }
      if r < heap.count, before(heap[largest], heap[r]) { largest = r }
      if largest == i { break }
      heap.swapAt(i, largest)
      i = largest
    }
  }
}

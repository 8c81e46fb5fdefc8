import RealmModel
/// Writes `ArrayMixed` leaves (§6.11) in the 6-slot format-24 layout, including nested lists
/// and dictionaries, or the 4-slot layout of formats 21-23 (no nested collections).
///
/// Slot 0 composite values `payload << 8 | kind << 5 | (type + 1)`; slot 1 ints (big ints,
/// float/double bits, untyped links); slot 2 pairs (timestamps, decimals, typed links);
/// slot 3 a string leaf (strings, binaries, ObjectIds, UUIDs); slot 4 refs of nested
/// collections; slot 5 per-element salts of nested collections. Unused slots are 0.
public enum MixedLeafEncoder {
  /// Deepest nesting of collections inside Mixed values that is written.
  public static let maxNesting = Limits.default.maxNesting

  /// Writes one leaf for `values`. Links become typed links (`tableKeys` gives each class's
  /// table key); nested collections get salts `saltBase + index + 1`, distinct within the
  /// collection the leaf belongs to.
  public static func leaf<S: NodeSink>(
    _ values: ArraySlice<RealmValue>, tableKeys: [String: Int64], saltBase: Int = 0, depth: Int = 0,
    format: WritableFileFormat = .current, into sink: inout S
  ) throws(FormatError) -> Ref {
    guard depth <= maxNesting else {
      throw FormatError.limit("collections nested deeper than \(maxNesting) levels inside a mixed value")
    }
    var composite = [Int64]()
    composite.reserveCapacity(values.count)
    var ints = [Int64]()
    var pairs = [Int64]()
    var strings = [[UInt8]?]()
    var refs = [Int64]()
    var salts = [Int64]()
    var hasCollection = false

    func inline(_ type: MixedDataType, _ payload: Int64) -> Int64 { (payload << 8) | (type.rawValue + 1) }
    func indirect(_ type: MixedDataType, kind: Int64, _ index: Int) -> Int64 {
      (Int64(index) << 8) | (kind << 5) | (type.rawValue + 1)
    }

    for (position, value) in values.enumerated() {
      var salt: Int64 = 0
      switch value {
      case .null:
        composite.append(0)
      case .int(let i):
        if i >= Int64(Int32.min) && i <= Int64(Int32.max) {
          composite.append(inline(.int, i))
        } else {
          composite.append(indirect(.int, kind: 1, ints.count))
          ints.append(i)
        }
      case .bool(let b):
        composite.append(inline(.bool, b ? 1 : 0))
      case .float(let f):
        composite.append(indirect(.float, kind: 1, ints.count))
        ints.append(Int64(f.bitPattern))
      case .double(let d):
        composite.append(indirect(.double, kind: 1, ints.count))
        ints.append(Int64(bitPattern: d.bitPattern))
      case .string(let s):
        composite.append(indirect(.string, kind: 3, strings.count))
        strings.append(Array(s.utf8))
      case .data(let d):
        composite.append(indirect(.binary, kind: 3, strings.count))
        strings.append(d)
      case .objectId(let o):
        composite.append(indirect(.objectId, kind: 3, strings.count))
        strings.append(o.bytes)
      case .uuid(let u):
        composite.append(indirect(.uuid, kind: 3, strings.count))
        strings.append(u.bytes)
      case .date(let t):
        composite.append(indirect(.timestamp, kind: 2, pairs.count / 2))
        pairs.append(t.seconds)
        pairs.append(Int64(t.nanoseconds))
      case .decimal128(let d):
        composite.append(indirect(.decimal, kind: 2, pairs.count / 2))
        pairs.append(Int64(bitPattern: d.low))
        pairs.append(Int64(bitPattern: d.high))
      case .link(let link):
        guard let tableKey = tableKeys[link.className] else {
          throw FormatError.corrupt("a mixed value links to class '\(link.className)', which is not in the schema")
        }
        composite.append(indirect(.typedLink, kind: 2, pairs.count / 2))
        pairs.append(tableKey)
        pairs.append(link.key)
      case .list where format.mixedLeafSlots < 6, .dictionary where format.mixedLeafSlots < 6:
        throw FormatError.corrupt("a mixed value holds a nested collection, which only format 24 can store")
      case .list(let elements):
        composite.append(indirect(.list, kind: 4, refs.count))
        refs.append(Int64(try list(elements, tableKeys: tableKeys, depth: depth + 1, into: &sink).rawValue))
        salt = Int64(saltBase + position + 1)
        hasCollection = true
      case .dictionary(let entries):
        composite.append(indirect(.dictionary, kind: 4, refs.count))
        refs.append(Int64(try dictionary(entries, tableKeys: tableKeys, depth: depth + 1, into: &sink).rawValue))
        salt = Int64(saltBase + position + 1)
        hasCollection = true
      case .set:
        throw FormatError.corrupt("a mixed value cannot hold a set (Realm nests only lists and dictionaries)")
      case .embedded(let e):
        throw FormatError.corrupt("a mixed value cannot hold an embedded object of class '\(e.className)'")
      }
      salts.append(salt)
    }

    let compositeRef = sink.append(NodeEncoder.integers(composite))
    let intsRef = ints.isEmpty ? Ref.null : sink.append(NodeEncoder.integers(ints))
    let pairsRef = pairs.isEmpty ? Ref.null : sink.append(NodeEncoder.integers(pairs))
    let stringsRef = strings.isEmpty ? Ref.null : try StringLeafEncoder.stringBytes(strings, into: &sink)
    var slots = [compositeRef, intsRef, pairsRef, stringsRef]
    if format.mixedLeafSlots == 6 {
      slots.append(refs.isEmpty ? Ref.null : sink.append(NodeEncoder.refArray(refs)))
      slots.append(hasCollection ? sink.append(NodeEncoder.integers(salts)) : Ref.null)
    }
    return sink.append(NodeEncoder.refArray(slots.map { Int64($0.rawValue) }))
  }

  /// A nested list: a B+-tree of Mixed; 0 for an empty list.
  public static func list<S: NodeSink>(
    _ elements: [RealmValue], tableKeys: [String: Int64], depth: Int = 0, format: WritableFileFormat = .current,
    into sink: inout S
  ) throws(FormatError) -> Ref {
    if elements.isEmpty { return .null }
    return try BPlusTreeWriter.write(count: elements.count, into: &sink) { (range, s) throws(FormatError) in
      try leaf(elements[range], tableKeys: tableKeys, saltBase: range.lowerBound, depth: depth, format: format, into: &s)
    }
  }

  /// A dictionary `[keys B+-tree, values B+-tree<Mixed>]` sorted by key (unsigned bytes in
  /// format 24, signed `char` in 23), or in format 22 a cluster tree keyed by the keys'
  /// hashes (§6.13); a repeated key keeps its last value. 0 for an empty dictionary.
  public static func dictionary<S: NodeSink>(
    _ entries: [DictionaryEntry], tableKeys: [String: Int64], depth: Int = 0,
    format: WritableFileFormat = .current, into sink: inout S
  ) throws(FormatError) -> Ref {
    if entries.isEmpty { return .null }
    if format.dictionariesAreClusterTrees {
      return try hashedDictionary(entries, tableKeys: tableKeys, format: format, into: &sink)
    }
    let sorted = sortedEntries(entries, format: format)
    let keys: [RealmValue] = sorted.map { .string($0.key) }
    let values = sorted.map(\.value)
    let keysRef = try BPlusTreeWriter.write(count: keys.count, into: &sink) { (range, s) throws(FormatError) in
      try TypedLeafEncoder.leaf(type: .string, nullable: false, values: keys[range], into: &s)
    }
    let valuesRef = try BPlusTreeWriter.write(count: values.count, into: &sink) { (range, s) throws(FormatError) in
      try leaf(values[range], tableKeys: tableKeys, saltBase: range.lowerBound, depth: depth, format: format, into: &s)
    }
    return sink.append(NodeEncoder.refArray([Int64(keysRef.rawValue), Int64(valuesRef.rawValue)]))
  }

  /// Formats 21/22 (Realm Core 11-12's `DictionaryClusterTree`): a cluster tree whose object
  /// keys are the CityHash64 of each key's bytes with the top bit cleared, and whose leaves
  /// hold the keys (a string leaf, column 0) and the values (`ArrayMixed`, column 1).
  private static func hashedDictionary<S: NodeSink>(
    _ entries: [DictionaryEntry], tableKeys: [String: Int64], format: WritableFileFormat, into sink: inout S
  ) throws(FormatError) -> Ref {
    let unique = sortedEntries(entries, format: format)
    let hashed = unique.map { (key: Int64(bitPattern: CityHash64.hash(Array($0.key.utf8)) & 0x7FFF_FFFF_FFFF_FFFF), entry: $0) }
      .sorted { $0.key < $1.key }
    for i in hashed.indices.dropFirst() where hashed[i].key == hashed[i - 1].key {
      // Core 11-12 would chain the second key under a negative key (a collision column);
      // two keys of one dictionary sharing a 63-bit hash is not written.
      throw FormatError.corrupt("the dictionary keys '\(hashed[i - 1].entry.key)' and '\(hashed[i].entry.key)' have the same hash")
    }
    var leaves = [ClusterTreeWriter.Leaf]()
    var start = 0
    while start < hashed.count {
      let end = min(start + ClusterTreeWriter.fanOut, hashed.count)
      let chunk = hashed[start..<end]
      let keys = try TypedLeafEncoder.leaf(
        type: .string, nullable: false, values: ArraySlice(chunk.map { RealmValue.string($0.entry.key) }), into: &sink)
      let values = try leaf(ArraySlice(chunk.map(\.entry.value)), tableKeys: tableKeys, format: format, into: &sink)
      let offset = hashed.count <= ClusterTreeWriter.fanOut ? 0 : chunk.first!.key
      leaves.append(
        ClusterTreeWriter.leaf(keys: ArraySlice(chunk.map(\.key)), offset: offset, columns: [keys, values], into: &sink))
      start = end
    }
    return ClusterTreeWriter.root(leaves: leaves, into: &sink)
  }

  /// Entries in storage order, later duplicates replacing earlier ones.
  public static func sortedEntries(_ entries: [DictionaryEntry], format: WritableFileFormat = .current) -> [DictionaryEntry] {
    let sorted = entries.enumerated().sorted { lhs, rhs in
      let c = SetOrdering.compareStrings(lhs.element.key, rhs.element.key, format: format)
      return c < 0 || (c == 0 && lhs.offset < rhs.offset)
    }
    var result = [DictionaryEntry]()
    result.reserveCapacity(sorted.count)
    for (_, entry) in sorted {
      if let last = result.last, SetOrdering.compareStrings(last.key, entry.key, format: format) == 0 {
        result[result.count - 1] = entry
      } else {
        result.append(entry)
      }
    }
    return result
  }
}

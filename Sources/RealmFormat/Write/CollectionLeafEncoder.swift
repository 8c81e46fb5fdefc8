import RealmModel
/// Writes the per-object structures of collection and backlink columns (§6.12, §6.13).
public enum CollectionLeafEncoder {
  /// A backlink leaf (`ArrayBacklink`, §6.12): per object 0 (none), a tagged origin key
  /// (one), or for several a B+-tree of origin keys (format 24) or one plain integer array of
  /// any length (formats 20-23).
  public static func backlinks<S: NodeSink>(
    _ origins: [[Int64]], format: WritableFileFormat = .current, into sink: inout S
  ) -> Ref {
    var elements = [Int64]()
    elements.reserveCapacity(origins.count)
    for list in origins { elements.append(backlinkSlot(list, format: format, into: &sink)) }
    return sink.append(NodeEncoder.refArray(elements))
  }

  /// One object's slot in a backlink column: 0 for no origin, the tagged key of a single
  /// one, else the ref of the list (written now).
  public static func backlinkSlot<S: NodeSink>(
    _ origins: [Int64], format: WritableFileFormat = .current, into sink: inout S
  ) -> Int64 {
    switch origins.count {
    case 0: return 0
    case 1: return RefOrTagged.taggedRaw(UInt64(bitPattern: origins[0]))
    default:
      let ref = format.backlinkListsAreTrees ? keyTree(origins, into: &sink) : sink.append(NodeEncoder.integers(origins))
      return Int64(ref.rawValue)
    }
  }

  /// A B+-tree of int64 with plain integer leaves (link lists and sets: raw keys, no +1;
  /// backlink lists; search-index key lists). `keys` must not be empty.
  public static func keyTree<S: NodeSink>(_ keys: [Int64], into sink: inout S) -> Ref {
    BPlusTreeWriter.write(count: keys.count, into: &sink) { (range, s) -> Ref in
      s.append(NodeEncoder.integers(keys[range]))
    }
  }

  /// The key tree of a slice of keys (see the array form).
  static func keyTree<S: NodeSink>(_ keys: ArraySlice<Int64>, into sink: inout S) -> Ref {
    let base = keys.startIndex
    return BPlusTreeWriter.write(count: keys.count, into: &sink) { (range, s) -> Ref in
      s.append(NodeEncoder.integers(keys[(base + range.lowerBound)..<(base + range.upperBound)]))
    }
  }

  /// The column slot of a collection column (`ArrayRef`): per object the collection's ref,
  /// 0 for an empty collection.
  public static func collectionRefs<S: NodeSink>(_ refs: [Ref], into sink: inout S) -> Ref {
    sink.append(NodeEncoder.refArray(refs.map { Int64($0.rawValue) }))
  }

  /// A list or set of a primitive element type: a B+-tree of typed leaves; 0 when empty.
  /// Sets must already be in storage order (``SetOrdering/sortedUnique(_:format:mixedSet:)``).
  public static func primitiveCollection<S: NodeSink>(
    _ elements: [RealmValue], type: PropertyType, nullable: Bool, tableKeys: [String: Int64] = [:],
    format: WritableFileFormat = .current, into sink: inout S
  ) throws(FormatError) -> Ref {
    if elements.isEmpty { return .null }
    if type == .mixed { return try MixedLeafEncoder.list(elements, tableKeys: tableKeys, format: format, into: &sink) }
    return try BPlusTreeWriter.write(count: elements.count, into: &sink) { (range, s) throws(FormatError) in
      try TypedLeafEncoder.leaf(type: type, nullable: nullable, values: elements[range], tableKeys: tableKeys, into: &s)
    }
  }

  /// A list or set of links: a B+-tree of raw target keys; 0 when empty.
  public static func linkCollection<S: NodeSink>(_ keys: [Int64], into sink: inout S) -> Ref {
    keys.isEmpty ? .null : keyTree(keys, into: &sink)
  }
}

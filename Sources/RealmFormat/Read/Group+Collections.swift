import RealmModel
/// Reading lists, sets and dictionaries (§6.13) and nested collections in mixed values (§6.11).
extension Group {
  /// The collection of row `row` of a collection column (`refs` is its `ArrayRef` leaf).
  func collection(_ refs: ArrayNode, _ row: Int, _ plan: ColumnDecodePlan, depth: Int, budget: DecodeBudget) throws(FormatError) -> RealmValue {
    try budget.spend(1)
    let ref: Ref
    switch RefOrTagged(raw: refs.uncheckedGet(row)) {
    case .null: ref = .null
    case .ref(let r): ref = r
    case .tagged: throw FormatError.corrupt("collection slot \(row) of \(refs.ref) is a tagged integer", at: refs.ref.rawValue)
    }
    switch plan.collection {
    case .dictionary:
      if ref.isNull { return .dictionary([]) }
      return .dictionary(try dictionary(ref, intKeys: plan.intKeys, target: plan.target, depth: depth, budget: budget))
    case .set:
      if ref.isNull { return .set([]) }
      return .set(try elements(ref, kind: plan.kind, nullable: plan.nullable, target: plan.target, depth: depth, budget: budget))
    case .list, .single:
      if ref.isNull { return .list([]) }
      return .list(try elements(ref, kind: plan.kind, nullable: plan.nullable, target: plan.target, depth: depth, budget: budget))
    }
  }

  /// The elements of the B+-tree at `root`, unresolved links left out.
  func elements(_ root: Ref, kind: ValueKind, nullable: Bool, target: Int?, depth: Int, budget: DecodeBudget) throws(FormatError) -> [RealmValue] {
    var out: [RealmValue] = []
    let maxCount = limits.maxCollectionCount
    try bPlusTree.forEachLeaf(root: root, budget: budget) { (node) throws(FormatError) in
      let leaf = try ValueLeaf(node, kind: kind, nullable: nullable, inCollection: true)
      guard out.count <= maxCount &- leaf.count else {
        throw FormatError.limit("a collection has more than \(maxCount) elements", at: root.rawValue)
      }
      out.reserveCapacity(out.count + leaf.count)
      for i in 0..<leaf.count {
        if let v = try value(leaf, i, target: target, depth: depth, budget: budget) { out.append(v) }
      }
    }
    return out
  }

  /// The entries of the dictionary at `ref`, in stored order; entries whose value is a link to
  /// a tombstone are left out.
  func dictionary(_ ref: Ref, intKeys: Bool, target: Int?, depth: Int, budget: DecodeBudget) throws(FormatError) -> [DictionaryEntry] {
    if fileFormat < 23 { return try legacyDictionary(ref, intKeys: intKeys, target: target, depth: depth, budget: budget) }
    // Format >= 23: [keys B+-tree, values B+-tree of Mixed], parallel.
    let top = try ArrayNode(elements: reader, ref)
    guard top.hasRefs, !top.isInner, top.count >= 2 else {
      throw FormatError.corrupt("dictionary at \(ref) is not a [keys, values] pair", at: ref.rawValue)
    }
    var keys: [String] = []
    try bPlusTree.forEachLeaf(root: try top.ref(0), budget: budget) { (node) throws(FormatError) in
      try appendKeys(node, intKeys: intKeys, to: &keys, budget: budget)
    }
    var entries: [DictionaryEntry] = []
    entries.reserveCapacity(keys.count)
    var index = 0
    try bPlusTree.forEachLeaf(root: try top.ref(1), budget: budget) { (node) throws(FormatError) in
      let leaf = try MixedLeaf(node)
      guard leaf.count <= keys.count &- index else {
        throw FormatError.corrupt("dictionary at \(ref) has more values than its \(keys.count) keys", at: ref.rawValue)
      }
      for i in 0..<leaf.count {
        if let v = try mixedValue(leaf, i, target: target, depth: depth, budget: budget) {
          entries.append(DictionaryEntry(keys[index], v))
        }
        index += 1
      }
    }
    guard index == keys.count else {
      throw FormatError.corrupt("dictionary at \(ref) has \(keys.count) keys but \(index) values", at: ref.rawValue)
    }
    return entries
  }

  /// Formats 21/22: a cluster tree with keys in column 0 and mixed values in column 1 (§6.13).
  private func legacyDictionary(_ ref: Ref, intKeys: Bool, target: Int?, depth: Int, budget: DecodeBudget) throws(FormatError) -> [DictionaryEntry] {
    var entries: [DictionaryEntry] = []
    var keys: [String] = []
    try clusterTree.forEachLeaf(root: ref, budget: budget) { (leaf) throws(FormatError) in
      guard let keyNode = try leaf.columnNode(0), let valueNode = try leaf.columnNode(1) else {
        throw FormatError.corrupt("legacy dictionary cluster at \(leaf.node.ref) lacks its key or value column", at: leaf.node.ref.rawValue)
      }
      keys.removeAll(keepingCapacity: true)
      try appendKeys(keyNode, intKeys: intKeys, to: &keys, budget: budget)
      let values = try MixedLeaf(valueNode)
      guard keys.count == leaf.count, values.count == leaf.count else {
        throw FormatError.corrupt("legacy dictionary cluster at \(leaf.node.ref) has \(keys.count) keys and \(values.count) values for \(leaf.count) entries", at: leaf.node.ref.rawValue)
      }
      for i in 0..<leaf.count {
        if let v = try mixedValue(values, i, target: target, depth: depth, budget: budget) {
          entries.append(DictionaryEntry(keys[i], v))
        }
      }
    }
    return entries
  }

  /// Appends the keys of one key leaf (strings, or integers shown in decimal).
  private func appendKeys(_ node: ArrayNode, intKeys: Bool, to keys: inout [String], budget: DecodeBudget) throws(FormatError) {
    guard keys.count <= limits.maxCollectionCount else {
      throw FormatError.limit("a dictionary has more than \(limits.maxCollectionCount) keys", at: node.ref.rawValue)
    }
    // A key leaf in string form is read as strings whatever the spec says: files written by
    // write_realm.py (py_committed.realm) carry key type Int (0) for string-keyed dictionaries.
    if intKeys && !node.hasRefs && node.header.widthType == .bits {
      let leaf = try IntLeaf(node, nullable: false)
      try budget.spend(leaf.count)
      for i in 0..<leaf.count { keys.append(String(leaf.value(i) ?? 0)) }
    } else {
      let leaf = try StringLeaf(node, isString: true)
      for i in 0..<leaf.count {
        let key = try leaf.string(i) ?? ""
        try budget.spend(ReadBudget.cost(ofPayloadBytes: key.utf8.count))
        keys.append(key)
      }
    }
  }
}

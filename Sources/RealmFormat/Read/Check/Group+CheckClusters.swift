import RealmModel

/// Cluster tree checks: column leaf sizes, key order, sub-tree counts (§5, `Cluster::verify`).
extension Group {
  /// Checks one cluster tree of `table` (objects or tombstones).
  func checkClusters(of table: Table, root: Ref, tombstones: Bool, _ log: inout ProblemLog) {
    let what = tombstones ? "tombstones of '\(table.name)'" : "table '\(table.name)'"
    var state = ClusterCheckState(budget: reader.count / 8 + 1)
    do {
      let count = try checkClusterNode(root, offset: 0, expectedDepth: nil, level: 0, table: table, what: what, &state, &log)
      let declared = tombstones ? table.tombstoneCount : table.objectCount
      if count != declared {
        log.add(.subtreeCount, at: root.rawValue, "\(what) holds \(count) objects but its root says \(declared)")
      }
    } catch {
      log.add(error, "the cluster tree of \(what) cannot be walked")
    }
  }

  struct ClusterCheckState {
    var budget: Int
    var lastKey: UInt64?
  }

  /// Checks the sub-tree at `ref` and returns the number of objects it holds.
  private func checkClusterNode(
    _ ref: Ref, offset: UInt64, expectedDepth: Int?, level: Int, table: Table, what: String,
    _ state: inout ClusterCheckState, _ log: inout ProblemLog
  ) throws(FormatError) -> Int {
    state.budget -= 1
    guard state.budget >= 0 else { throw FormatError.limit("the walk visits more nodes than the file can hold", at: ref.rawValue) }
    guard level <= limits.maxDepth else { throw FormatError.limit("the tree is deeper than \(limits.maxDepth)", at: ref.rawValue) }
    let node = try ArrayNode(elements: reader, ref)
    guard node.hasRefs, node.count >= 1 else { throw FormatError.corrupt("cluster node at \(ref) is not a has-refs array", at: ref.rawValue) }
    if !node.isInner {
      if let expectedDepth, expectedDepth != 0 {
        log.add(.subtreeCount, at: ref.rawValue, "cluster leaf of \(what) found where an inner node of depth \(expectedDepth) belongs")
      }
      let leaf = try ClusterLeaf(node, offset: offset)
      checkLeafKeys(leaf, what: what, &state, &log)
      checkLeafColumns(leaf, table: table, what: what, &log)
      return leaf.count
    }
    let inner = try InnerClusterNode(node, shift: clusterShift)
    if let expectedDepth, expectedDepth != inner.depth {
      log.add(.subtreeCount, at: ref.rawValue, "inner cluster node of \(what) has depth \(inner.depth), expected \(expectedDepth)")
    }
    var total = 0
    var previousOffset: UInt64?
    for i in 0..<inner.childCount {
      let childOffset = inner.childOffset(i)
      if let previousOffset, childOffset <= previousOffset {
        log.add(.keyOrder, at: ref.rawValue, "child offsets of the inner cluster node of \(what) are not ascending")
      }
      previousOffset = childOffset
      let child = try node.ref(i &+ 3)
      do {
        total &+= try checkClusterNode(child, offset: offset &+ childOffset, expectedDepth: inner.depth - 1, level: level + 1, table: table, what: what, &state, &log)
      } catch where error.code != .limitExceeded {
        log.add(error, "a cluster node of \(what) cannot be read")
      }
    }
    if total != inner.objectCount {
      log.add(.subtreeCount, at: ref.rawValue, "inner cluster node of \(what) says \(inner.objectCount) objects but its children hold \(total)")
    }
    return total
  }

  /// Keys must ascend strictly, within the leaf and across the whole tree (§5.1).
  private func checkLeafKeys(_ leaf: ClusterLeaf, what: String, _ state: inout ClusterCheckState, _ log: inout ProblemLog) {
    for j in 0..<leaf.count {
      let key = UInt64(bitPattern: leaf.key(j))
      if let last = state.lastKey, key <= last {
        log.add(.keyOrder, at: (leaf.keys ?? leaf.node).ref.rawValue, "object key \(Int64(bitPattern: key)) of \(what) does not follow key \(Int64(bitPattern: last))")
      }
      state.lastKey = key
    }
  }

  /// Every column leaf must hold exactly one entry per object (`Cluster::verify`).
  private func checkLeafColumns(_ leaf: ClusterLeaf, table: Table, what: String, _ log: inout ProblemLog) {
    for column in table.columns {
      let count: Int
      do throws(FormatError) {
        guard let node = try leaf.columnNode(column.leafIndex) else {
          log.add(.clusterSize, at: leaf.node.ref.rawValue, "cluster of \(what) has no leaf for column '\(column.isBacklink ? "backlinks \(column.leafIndex)" : column.name)'")
          continue
        }
        if column.isBacklink || column.collectionKind != .single {
          guard node.hasRefs else { throw FormatError.corrupt("the column leaf has no refs", at: node.ref.rawValue) }
          count = node.count
        } else {
          let enumValues = column.enumValuesRef.isNull ? nil : try ArrayNode(elements: reader, column.enumValuesRef)
          count = try ValueLeaf(node, kind: try ValueKind(column.type), nullable: column.isNullable, inCollection: false, enumValues: enumValues).count
        }
      } catch {
        log.add(error, "column '\(column.name)' of \(what) cannot be read")
        continue
      }
      if count != leaf.count {
        log.add(.clusterSize, at: leaf.node.ref.rawValue, "column '\(column.isBacklink ? "backlinks \(column.leafIndex)" : column.name)' of \(what) has \(count) values in a cluster of \(leaf.count) objects")
      }
    }
  }
}

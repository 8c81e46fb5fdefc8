import RealmFormat
import RealmModel

/// What a conversion of a synced realm to a local realm keeps and drops, decided from the
/// file alone (nothing is written here).
///
/// - Dropped: the sync history (never copied: the new file gets a local history), the
///   sync-only tables (`SyncBookkeeping.tableNames`), the classes of Realm Object Server's
///   query-based sync when no kept class links to them, asymmetric classes without objects,
///   and embedded classes that only dropped classes link to.
/// - Converted: asymmetric classes that hold objects become ordinary top-level classes (a
///   local realm cannot hold asymmetric classes; the objects are the data that was never
///   uploaded, so they are kept).
/// - Kept as they are: every other class and plain table, with their object keys.
public struct UnsyncPlan: Sendable {
  /// What sync held (history, subscriptions, sync tables).
  public let sync: SyncState
  /// The classes of the local realm, with their objects.
  public let classes: [SyncState.TableCount]
  /// Plain tables that are not sync's (files written with Realm Core directly), kept.
  public let otherTables: [SyncState.TableCount]
  /// The sync-only tables and classes left out, with their objects.
  public let dropped: [SyncState.TableCount]
  /// Asymmetric classes kept as ordinary classes (they held objects).
  public let convertedAsymmetric: [SyncState.TableCount]
  /// Query-based-sync classes kept because a kept class links to them.
  public let keptQueryBasedSyncClasses: [SyncState.TableCount]
  /// What the rewrite copies.
  let content: UpgradeContent

  /// Decides the conversion of `group`, a synced realm.
  ///
  /// - Throws: `FormatError` when the sync history or the schema cannot be read;
  ///   ``RewriteError`` `unsupported` when `group` has no sync history.
  public init(_ group: Group) throws {
    guard let sync = try group.syncState() else {
      throw RewriteError(.unsupported, "the realm has no Device Sync history (it is a local realm)")
    }
    self.sync = sync
    let schema = try group.schema()
    let counts = Dictionary(group.tables.map { ($0.linkName, $0.objectCount) }, uniquingKeysWith: { first, _ in first })
    let count = { (name: String) in SyncState.TableCount(name: name, objects: counts[name] ?? 0) }

    var droppedClasses = Set<String>()
    for c in sync.asymmetricClasses where c.objects == 0 { droppedClasses.insert(c.name) }
    // Query-based sync's classes go unless a class that stays links to them, directly or
    // through other such classes (`__Permission` links `__Role`, which links `__User`).
    let candidates = Set(sync.queryBasedSyncClasses.map(\.name))
    var keptCandidates = Set<String>()
    var frontier = schema.classes.map(\.name).filter { !candidates.contains($0) && !droppedClasses.contains($0) }
    while let name = frontier.popLast() {
      for target in UnsyncPlan.linkTargets(of: name, in: schema) where candidates.contains(target) && !keptCandidates.contains(target) {
        keptCandidates.insert(target)
        frontier.append(target)
      }
    }
    droppedClasses.formUnion(candidates.subtracting(keptCandidates))
    // Embedded classes that only dropped classes link to.
    var changed = true
    while changed {
      changed = false
      for c in schema.classes where c.isEmbedded && !droppedClasses.contains(c.name) {
        let sources = UnsyncPlan.linkSources(of: c.name, in: schema)
        if !sources.isEmpty && sources.isSubset(of: droppedClasses) {
          droppedClasses.insert(c.name)
          changed = true
        }
      }
    }

    var kept = schema
    kept.classes.removeAll { droppedClasses.contains($0.name) }
    var plain: [ObjectSchema] = []
    var sources: [(name: String, table: Table)] = []
    for c in kept.classes where !c.isEmbedded {
      if let t = group.table(forClass: c.name) { sources.append((c.name, t)) }
    }
    var others: [SyncState.TableCount] = []
    for t in group.tables where t.className == nil && t.name != FormatConstants.metadataTable && !SyncBookkeeping.isSyncTable(t) {
      plain.append(try group.objectSchema(of: t))
      sources.append((t.linkName, t))
      others.append(count(t.linkName))
    }
    content = UpgradeContent(schema: kept, plainTables: plain, sources: sources)
    classes = kept.classes.map { count($0.name) }
    otherTables = others
    dropped = sync.syncTables + droppedClasses.sorted().map(count)
    convertedAsymmetric = sync.asymmetricClasses.filter { $0.objects > 0 }
    keptQueryBasedSyncClasses = keptCandidates.sorted().map(count)
  }

  /// The classes with a link (any collection of links) to `target`.
  static func linkSources(of target: String, in schema: Schema) -> Set<String> {
    var sources = Set<String>()
    for c in schema.classes where c.properties.contains(where: { $0.type == .object && $0.objectType == target }) {
      sources.insert(c.name)
    }
    return sources
  }

  /// The classes that `source` links to.
  static func linkTargets(of source: String, in schema: Schema) -> [String] {
    schema.objectSchema(named: source)?.properties.compactMap { $0.type == .object ? $0.objectType : nil } ?? []
  }
}

import RealmModel
/// Recognising a synced realm: its history, the sync-only tables, the subscriptions.
extension Group {
  /// True for a file with a Device Sync history (SyncClient or SyncServer).
  public var isSynced: Bool { historyType == .syncClient || historyType == .syncServer }

  /// The client file identifier the sync server assigned (group top slot 10), 0 when none.
  public func syncFileIdent() throws(FormatError) -> Int64 {
    guard topArraySize > 10 else { return 0 }
    let top = try ArrayNode(elements: reader, topRef)
    return Int64(bitPattern: try top.tagged(10))
  }

  /// What sync keeps in this file, nil for a file without a sync history.
  ///
  /// - Throws: ``FormatError`` when the sync history or the subscription tables are damaged.
  public func syncState() throws(FormatError) -> SyncState? {
    guard isSynced else { return nil }
    var kind: SyncState.Kind
    if historyType == .syncServer {
      kind = .server
    } else if fileFormat <= 9 {
      kind = .objectServer
    } else {
      kind = table(named: SyncBookkeeping.subscriptionSetsTable) == nil ? .partition : .flexible
    }
    var entries: Int?
    var pending: Int?
    if historyType == .syncClient, fileFormat >= 10, ClientHistory.readableSchemaVersions.contains(historySchemaVersion) {
      let history = try ClientHistory(
        reader: reader, limits: limits, root: historyRef, snapshotVersion: snapshotVersion ?? 0)
      entries = history.entries
      pending = history.pendingUploads
    } else if historyType == .syncClient, fileFormat >= 10, historyRef.isNull {
      (entries, pending) = (0, 0)
    }
    let counts = { (t: Table) in SyncState.TableCount(name: t.linkName, objects: t.objectCount) }
    return SyncState(
      historyType: historyType, historySchemaVersion: historySchemaVersion, kind: kind,
      clientFileIdent: try syncFileIdent(), historyEntries: entries, pendingUploads: pending,
      subscriptions: kind == .flexible ? try latestSubscriptionSet() : nil,
      syncTables: tables.filter(SyncBookkeeping.isSyncTable).map(counts),
      queryBasedSyncClasses: tables.filter { t in
        t.className.map(SyncBookkeeping.queryBasedSyncClasses.contains) ?? false
      }.map(counts),
      asymmetricClasses: tables.filter { $0.type == .topLevelAsymmetric && $0.className != nil }.map(counts))
  }

  /// The flexible-sync subscription set of the highest version (`flx_subscription_sets`, its
  /// `subscriptions` list of embedded `flx_subscriptions`), nil when there is none.
  public func latestSubscriptionSet() throws(FormatError) -> SubscriptionSet? {
    guard let sets = table(named: SyncBookkeeping.subscriptionSetsTable) else { return nil }
    let names = sets.publicColumns.map(\.name)
    func position(_ name: String) throws(FormatError) -> Int {
      guard let i = names.firstIndex(of: name) else {
        throw FormatError.corrupt("the table \(sets.name) has no column '\(name)'", at: sets.ref.rawValue)
      }
      return i
    }
    let (version, state, error, list) = (try position("version"), try position("state"), names.firstIndex(of: "error"), try position("subscriptions"))
    var latest: (version: Int64, values: [RealmValue])?
    do {
      try forEachObject(in: sets) { _, values in
        guard case .int(let v) = values[version] else { return }
        if latest == nil || v > latest!.version { latest = (v, values) }
      }
    } catch let e as FormatError {
      throw e
    } catch {
      throw FormatError.corrupt("the subscription sets cannot be read: \(error)")
    }
    guard let latest else { return nil }
    var stateValue: Int64 = 0
    if case .int(let s) = latest.values[state] { stateValue = s }
    var message: String?
    if let error, case .string(let m) = latest.values[error] { message = m }
    var subscriptions: [SubscriptionSet.Subscription] = []
    if case .list(let elements) = latest.values[list] {
      for case .embedded(let sub) in elements {
        func text(_ name: String) -> String? {
          guard case .string(let s)? = sub.properties.first(where: { $0.name == name })?.value else { return nil }
          return s
        }
        subscriptions.append(
          SubscriptionSet.Subscription(name: text("name"), className: text("object_class") ?? "", query: text("query") ?? ""))
      }
    }
    return SubscriptionSet(
      version: latest.version, state: SubscriptionSet.state(stored: stateValue), error: message, subscriptions: subscriptions)
  }
}

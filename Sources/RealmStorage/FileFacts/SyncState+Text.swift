import RealmModel

/// What Device Sync holds in a synced realm, in words: what `open`, `unsync` and `diff` print.
extension SyncState {
  /// `3 local changes never uploaded`, or why it is not known.
  public var pendingText: String {
    guard let pending = pendingUploads else {
      switch kind {
      case .server: return "a server's history: no uploads pending"
      case .objectServer: return "local changes never uploaded: unknown (realmctl does not read Realm Object Server's history)"
      default: return "local changes never uploaded: unknown (realmctl does not read history schema version \(historySchemaVersion))"
      }
    }
    return pending == 1 ? "1 local change never uploaded" : "\(pending) local changes never uploaded"
  }

  /// `flexible sync, client file ident 3, 1 local change never uploaded, 2 flexible-sync
  /// subscriptions (set version 3, complete)`: the kind, the identity the server gave, what
  /// was not uploaded and the subscriptions, on one line.
  public var summaryText: String {
    var parts = [kind.text]
    if clientFileIdent != 0 { parts.append("client file ident \(clientFileIdent)") }
    parts.append(pendingText)
    if let subscriptions { parts.append(subscriptions.summaryText) }
    return parts.joined(separator: ", ")
  }
}

extension SyncState.Kind {
  /// The kind of sync, in words.
  public var text: String {
    switch self {
    case .flexible: "flexible sync"
    case .partition: "partition-based sync"
    case .objectServer: "Realm Object Server sync"
    case .server: "sync server file"
    }
  }
}

extension SubscriptionSet {
  /// `2 flexible-sync subscriptions (set version 3, complete)`.
  public var summaryText: String {
    let n = subscriptions.count
    var text = "\(n) flexible-sync subscription\(n == 1 ? "" : "s") (set version \(version), \(state.rawValue)"
    if let error, !error.isEmpty { text += ": \(error)" }
    return text + ")"
  }
}

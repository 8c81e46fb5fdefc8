/// What Device Sync keeps in a synced realm (history type SyncClient or SyncServer), and what a
/// conversion to a local realm drops: read by `Group.syncState()` of RealmFormat.
public struct SyncState: Sendable {
  /// How the realm was synchronized.
  public enum Kind: String, Sendable {
    /// Atlas Device Sync, flexible sync (2022 on): subscriptions in `flx_subscription_sets`.
    case flexible
    /// Atlas Device Sync, partition-based sync (2020-2024).
    case partition
    /// A sync client file of Realm Object Server (Realm Platform, file formats 2-9, 2016-2020).
    case objectServer
    /// A server-side file (history type SyncServer).
    case server
  }

  /// One table with its object count.
  public struct TableCount: Sendable, Equatable {
    /// The stored table name (`flx_subscriptions`) or the class name (`__Permission`).
    public var name: String
    /// Objects in the table.
    public var objects: Int
    /// Creates a count.
    public init(name: String, objects: Int) {
      self.name = name
      self.objects = objects
    }
  }

  /// The history type (SyncClient or SyncServer).
  public var historyType: HistoryType
  /// The history schema version (group top slot 9).
  public var historySchemaVersion: Int
  /// The kind of sync.
  public var kind: Kind
  /// The client file identifier the server assigned (group top slot 10); 0 when none was.
  public var clientFileIdent: Int64
  /// Changesets in the client's sync history; nil when the history is not one realmctl reads
  /// (Realm Object Server files, server files).
  public var historyEntries: Int?
  /// Local changesets never uploaded (not empty, of local origin, past the upload cursor), as
  /// Realm Core counts them; nil when the history does not tell.
  public var pendingUploads: Int?
  /// The latest flexible-sync subscription set, nil for other kinds or when there is none.
  public var subscriptions: SubscriptionSet?
  /// The sync-only tables of the file (`SyncBookkeeping.tableNames` of RealmFormat) with their objects.
  public var syncTables: [TableCount]
  /// Classes of query-based sync (`SyncBookkeeping.queryBasedSyncClasses` of RealmFormat) present.
  public var queryBasedSyncClasses: [TableCount]
  /// Asymmetric (data-ingest) classes with their objects: objects written on the device and
  /// not uploaded yet (uploaded ones are deleted from the device).
  public var asymmetricClasses: [TableCount]

  /// Creates a description (the reader does).
  package init(
    historyType: HistoryType, historySchemaVersion: Int, kind: Kind, clientFileIdent: Int64,
    historyEntries: Int?, pendingUploads: Int?, subscriptions: SubscriptionSet?, syncTables: [TableCount],
    queryBasedSyncClasses: [TableCount], asymmetricClasses: [TableCount]
  ) {
    self.historyType = historyType
    self.historySchemaVersion = historySchemaVersion
    self.kind = kind
    self.clientFileIdent = clientFileIdent
    self.historyEntries = historyEntries
    self.pendingUploads = pendingUploads
    self.subscriptions = subscriptions
    self.syncTables = syncTables
    self.queryBasedSyncClasses = queryBasedSyncClasses
    self.asymmetricClasses = asymmetricClasses
  }
}

/// A flexible-sync subscription set (`flx_subscription_sets`, Realm Core `SubscriptionSet`).
public struct SubscriptionSet: Sendable, Equatable {
  /// Realm Core's states of a stored set.
  public enum State: String, Sendable {
    case pending, bootstrapping, complete, error, awaitingMark, unknown
  }

  /// One subscription (`flx_subscriptions`).
  public struct Subscription: Sendable, Equatable {
    /// The subscription's name, nil for an unnamed one.
    public var name: String?
    /// The class it subscribes to.
    public var className: String
    /// Its query, in Realm Query Language.
    public var query: String
    /// Creates a subscription.
    public init(name: String?, className: String, query: String) {
      self.name = name
      self.className = className
      self.query = query
    }
  }

  /// The set's version (0 is the initial empty set).
  public var version: Int64
  /// Its state.
  public var state: State
  /// The server's error message for a set in the error state.
  public var error: String?
  /// The subscriptions, in stored order.
  public var subscriptions: [Subscription]

  /// Creates a set (the reader does).
  package init(version: Int64, state: State, error: String?, subscriptions: [Subscription]) {
    self.version = version
    self.state = state
    self.error = error
    self.subscriptions = subscriptions
  }
}

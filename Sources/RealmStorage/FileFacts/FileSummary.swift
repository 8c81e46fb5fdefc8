import RealmFormat
import RealmModel

/// What `realmctl open` shows about a Realm file: gathered once, rendered as text or JSON.
public struct FileSummary {
  /// One table of the file with its object count.
  public struct TableCount {
    /// The class name (without `class_`) for classes, the stored name for other tables.
    public var name: String
    /// Live objects (tombstones excluded).
    public var objects: Int
    /// True for embedded classes.
    public var isEmbedded: Bool
    /// The primary key property, when the table has one.
    public var primaryKey: String?
    /// True for asymmetric (data ingest) classes of a synced realm.
    public var isAsymmetric = false
  }

  /// The path as given.
  public var path: String
  /// File size in bytes.
  public var size: Int
  /// True for an encrypted file (opened with its key).
  public var isEncrypted: Bool
  /// Bytes of data: the decrypted size for an encrypted file, else the file size.
  public var dataSize: Int
  /// File format version of the live snapshot (§1.3).
  public var fileFormat: Int
  /// Schema version from the `metadata` table, nil when the file is unversioned.
  public var schemaVersion: Int64?
  /// The history type (top slot 7).
  public var historyType: HistoryType
  /// The history schema version (top slot 9).
  public var historySchemaVersion: Int
  /// True for a compacted copy: in streaming form, or converted from it by Realm and not
  /// committed to since (§1.2).
  public var isCompacted: Bool
  /// True while the file is still in streaming form (§1.2).
  public var isStreaming: Bool
  /// Bytes in the free list.
  public var freeBytes: Int
  /// Entries in the free list.
  public var freeChunks: Int
  /// The Object Store classes (`class_` tables), in byte order of their names.
  public var classes: [TableCount]
  /// Every other table (`metadata`, `pk`, plain tables of files not written through the
  /// Object Store), in file order.
  public var otherTables: [TableCount]
  /// What sync keeps in a synced realm (nil for a local realm, or when it cannot be read).
  public var sync: SyncState?
  /// Why the sync state of a synced realm cannot be read (a damaged sync history).
  public var syncError: String?
  /// For the sync client's own metadata realm (users, tokens, file actions): its users.
  public var syncMetadataUsers: Int?

  /// Reads the summary of `file`.
  ///
  /// - Throws: ``StorageError`` `corrupt` when the schema version cannot be read.
  public init(_ file: RealmFile) throws(StorageError) {
    let group = file.group
    path = file.path
    size = file.fileSize
    isEncrypted = file.isEncrypted
    dataSize = file.dataSize
    fileFormat = group.fileFormat
    schemaVersion = try RealmInput.reading(file) { () throws(FormatError) in try group.schemaVersion() }
    historyType = group.historyType
    historySchemaVersion = group.historySchemaVersion
    isStreaming = group.isStreaming
    // §1.2: converting a streaming file sets the select bit and leaves top_ref[0] = ~0; the
    // next commit overwrites that slot.
    isCompacted = group.isStreaming || (group.header.selectBit == 1 && group.header.topRefs.first == UInt64.max)
    freeBytes = group.freeBytes
    freeChunks = group.freeList.count
    var classes: [TableCount] = []
    var others: [TableCount] = []
    for table in group.tables {
      let count = TableCount(
        name: table.className ?? table.name, objects: table.objectCount, isEmbedded: table.isEmbedded,
        primaryKey: table.primaryKey.flatMap { table.column(key: $0)?.name }, isAsymmetric: table.type == .topLevelAsymmetric)
      if table.className != nil {
        classes.append(count)
      } else {
        others.append(count)
      }
    }
    classes.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    self.classes = classes
    otherTables = others
    do {
      sync = try group.syncState()
    } catch {
      syncError = error.detail
    }
    syncMetadataUsers = FileSummary.syncMetadataUsers(classes)
  }

  /// The users of a sync metadata realm (`sync_metadata.realm`, written by the SDKs' sync
  /// client: classes `UserMetadata` and `FileActionMetadata`), nil for any other realm.
  public static func syncMetadataUsers(_ classes: [TableCount]) -> Int? {
    guard classes.contains(where: { $0.name == "FileActionMetadata" }),
      let users = classes.first(where: { $0.name == "UserMetadata" })
    else { return nil }
    return users.objects
  }

  /// Realm Core's name of a history type (`Replication::HistoryType`), as its messages print it.
  public static func name(of history: HistoryType) -> String {
    switch history {
    case .none: "None"
    case .outOfRealm: "OutOfRealm"
    case .inRealm: "InRealm"
    case .syncClient: "SyncClient"
    case .syncServer: "SyncServer"
    }
  }

  /// What a history type means, for people.
  public static func meaning(of history: HistoryType) -> String {
    switch history {
    case .none: "no history"
    case .outOfRealm: "history kept outside the file"
    case .inRealm: "local history, as a Realm SDK app writes"
    case .syncClient: "Device Sync client"
    case .syncServer: "Device Sync server"
    }
  }
}

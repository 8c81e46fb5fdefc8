import RealmFormat
import RealmModel

/// Synced realms built by our writer for tests, in the shapes Realm Core's sync client leaves
/// on a device (no Realm build here has sync, so none can be made by Realm itself): a
/// SyncClient history with changesets of local and server origin and an upload cursor, a
/// client file ident, object keys as sync assigns them (large, not 0, 1, 2, ...), and for
/// flexible sync the subscription store's tables, Realm Core's names and columns
/// (`sync/subscriptions.cpp`, `sync/noinst/sync_metadata_schema.cpp`,
/// `sync/noinst/pending_bootstrap_store.cpp`).
public enum SyncedFiles {
  /// One entry of the sync history.
  public struct Change: Sendable {
    /// 0 for a change made on the device, else the file ident of the client it came from.
    public var originFileIdent: Int64
    /// The changeset's bytes (empty: a commit that changed nothing sync uploads).
    public var changeset: [UInt8]
    /// Creates an entry.
    public init(originFileIdent: Int64, changeset: [UInt8]) {
      self.originFileIdent = originFileIdent
      self.changeset = changeset
    }
  }

  /// What to build.
  public struct Shape: Sendable {
    /// Flexible sync (with subscription tables) or partition-based.
    public var flexible = false
    /// The subscriptions of the latest set: name (nil: unnamed), class, query.
    public var subscriptions: [(name: String?, className: String, query: String)] = []
    /// The sync history, oldest first.
    public var history: [Change] = []
    /// The version up to which local changes were uploaded.
    public var uploadCursor: Int64 = 0
    /// The client file ident.
    public var clientFileIdent: UInt64 = 7
    /// nil: no asymmetric class; else the number of `Event` objects (asymmetric) to hold.
    public var asymmetricEvents: Int?
    /// The number of `Dog` objects (the first two have owners).
    public var dogs = 3
    /// Creates the default shape: partition-based, empty history.
    public init() {}
  }

  /// A flexible-sync file: subscriptions `dogs` (`Dog` named "d…") and an unnamed one to every
  /// `Person`, two local changes never uploaded, and `asymmetricEvents` objects of an
  /// asymmetric class when given.
  public static func flexibleShape(asymmetricEvents: Int? = nil) -> Shape {
    var shape = Shape()
    shape.flexible = true
    shape.subscriptions = [("dogs", "Dog", "name BEGINSWITH \"d\""), (nil, "Person", "TRUEPREDICATE")]
    (shape.history, shape.uploadCursor) = history(pending: 2)
    shape.asymmetricEvents = asymmetricEvents
    return shape
  }

  /// The history with `pending` local changes never uploaded: one change from the server,
  /// two uploaded local changes, an empty local commit, then the pending ones. The cursor is
  /// the version after the uploaded ones.
  public static func history(pending: Int) -> (changes: [Change], uploadCursor: Int64) {
    var changes = [
      Change(originFileIdent: 2, changeset: [1, 2, 3]),
      Change(originFileIdent: 0, changeset: [4, 5]),
      Change(originFileIdent: 0, changeset: [6]),
    ]
    // Versions start at 1: entry i produced version i + 2; the cursor says "up to version 4".
    let cursor: Int64 = 4
    changes.append(Change(originFileIdent: 0, changeset: []))
    for i in 0..<pending { changes.append(Change(originFileIdent: 0, changeset: [UInt8(i), 9, 9])) }
    changes.append(Change(originFileIdent: 3, changeset: [7, 7]))
    return (changes, cursor)
  }

  /// Key of object `i` of a class, as sync would give it (not 0, 1, 2, ...).
  public static func key(_ i: Int) -> Int64 { 0x2A_0000_0000 + Int64(i) * 0x1_0001 }

  /// The app's classes: `Dog` (primary key `_id`, an owner link), `Person` (primary key
  /// `_id`, a list of dogs, an embedded `Address`), and `Event` when asymmetric.
  static func schema(_ shape: Shape) -> Schema {
    var classes = [
      ObjectSchema(name: "Address", isEmbedded: true, properties: [Property(name: "street", type: .string)]),
      ObjectSchema(name: "Dog", primaryKey: "_id", properties: [
        Property(name: "_id", type: .int, isIndexed: true), Property(name: "name", type: .string),
        Property(name: "owner", type: .object, objectType: "Person", isOptional: true),
      ]),
      ObjectSchema(name: "Person", primaryKey: "_id", properties: [
        Property(name: "_id", type: .int, isIndexed: true), Property(name: "name", type: .string),
        Property(name: "dogs", type: .object, collection: .list, objectType: "Dog"),
        Property(name: "address", type: .object, objectType: "Address", isOptional: true),
      ]),
    ]
    if shape.asymmetricEvents != nil {
      classes.append(ObjectSchema(name: "Event", primaryKey: "_id", properties: [
        Property(name: "_id", type: .int, isIndexed: true), Property(name: "kind", type: .string),
      ]))
    }
    return Schema(schemaVersion: 3, fileFormat: 24, classes: classes)
  }

  /// The subscription store's tables (flexible sync).
  static let flexibleTables = [
    ObjectSchema(name: "sync_internal_schemas", primaryKey: "schema_group_name", properties: [
      Property(name: "schema_group_name", type: .string, isIndexed: true), Property(name: "schema_version", type: .int),
    ]),
    ObjectSchema(name: "flx_subscriptions", isEmbedded: true, properties: [
      Property(name: "id", type: .objectId), Property(name: "created_at", type: .date),
      Property(name: "updated_at", type: .date), Property(name: "name", type: .string, isOptional: true),
      Property(name: "object_class", type: .string), Property(name: "query", type: .string),
    ]),
    ObjectSchema(name: "flx_subscription_sets", primaryKey: "version", properties: [
      Property(name: "version", type: .int, isIndexed: true), Property(name: "state", type: .int),
      Property(name: "snapshot_version", type: .int), Property(name: "error", type: .string, isOptional: true),
      Property(name: "subscriptions", type: .object, collection: .list, objectType: "flx_subscriptions"),
    ]),
    ObjectSchema(name: "flx_pending_bootstrap", primaryKey: "query_version", properties: [
      Property(name: "query_version", type: .int, isIndexed: true),
    ]),
  ]

  /// Builds the file; every node first goes through `rewrite` (``RewritingNodeSink``).
  public static func build(_ shape: Shape, rewriting rewrite: @escaping ([UInt8]) -> [UInt8]? = { _ in nil }) throws -> [UInt8] {
    let schema = schema(shape)
    let builder = try RealmFileBuilder(
      schema: schema, plainTables: shape.flexible ? flexibleTables : [], sink: RewritingNodeSink(rewrite: rewrite))
    for i in 0..<shape.dogs {
      _ = try builder.append(className: "Dog", key: key(i), values: [
        .int(Int64(100 + i)), .string("dog \(i)"), i >= 2 ? .null : .link(ObjectLink(className: "Person", key: key(i))),
      ])
    }
    for i in 0..<2 {
      let address = EmbeddedObject(className: "Address", key: 0, properties: [NamedValue("street", .string("street \(i)"))])
      _ = try builder.append(className: "Person", key: key(i), values: [
        .int(Int64(200 + i)), .string("person \(i)"), .list([.link(ObjectLink(className: "Dog", key: key(i)))]),
        .embedded(address),
      ])
    }
    for i in 0..<(shape.asymmetricEvents ?? 0) {
      _ = try builder.append(className: "Event", key: key(i), values: [.int(Int64(300 + i)), .string("event \(i)")])
    }
    if shape.flexible {
      _ = try builder.append(className: "sync_internal_schemas", key: 0, values: [.string("flx_subscription_store"), .int(2)])
      _ = try builder.append(className: "sync_internal_schemas", key: 1, values: [.string("pending_bootstrap"), .int(1)])
      let date = RealmValue.date(Timestamp(seconds: 1_700_000_000, nanoseconds: 0))
      let subs: [RealmValue] = shape.subscriptions.enumerated().map { i, s in
        .embedded(EmbeddedObject(className: "flx_subscriptions", key: 0, properties: [
          NamedValue("id", .objectId(ObjectId(high: 0x6554_0000_0000_0000 + UInt64(i), low: 1))),
          NamedValue("created_at", date), NamedValue("updated_at", date),
          NamedValue("name", s.name.map(RealmValue.string) ?? .null),
          NamedValue("object_class", .string(s.className)), NamedValue("query", .string(s.query)),
        ]))
      }
      // The initial empty set (version 0, superseded sets are deleted) and the latest.
      _ = try builder.append(className: "flx_subscription_sets", key: 0, values: [.int(0), .int(3), .int(1), .null, .list([])])
      _ = try builder.append(className: "flx_subscription_sets", key: 1, values: [.int(1), .int(3), .int(2), .null, .list(subs)])
    }
    let historyRoot = writeHistory(shape.history, uploadCursor: shape.uploadCursor, into: &builder.sink)
    let finished = try builder.finish()
    var sink = builder.sink.image
    sink.finish(header: finished.header, fileSize: finished.fileSize)
    var bytes = sink.bytes
    // The top array is written with 64-bit slots: 6 snapshot version, 7 history type,
    // 8 history ref, 9 history schema version, 10 sync file ident.
    let top = finished.topRef.rawValue + 8
    let tagged = { (v: UInt64) in UInt64(bitPattern: RefOrTagged.taggedRaw(v)) }
    put(&bytes, at: top + 6 * 8, tagged(UInt64(shape.history.count + 1)), width: 8)
    put(&bytes, at: top + 7 * 8, tagged(UInt64(HistoryType.syncClient.rawValue)), width: 8)
    put(&bytes, at: top + 8 * 8, UInt64(historyRoot.rawValue), width: 8)
    put(&bytes, at: top + 9 * 8, tagged(12), width: 8)
    put(&bytes, at: top + 10 * 8, tagged(shape.clientFileIdent), width: 8)
    if shape.asymmetricEvents != nil { try makeAsymmetric("class_Event", in: &bytes) }
    return bytes
  }

  /// The client history's root array (21 slots, Realm Core `ClientHistory`, schema 12).
  static func writeHistory<S: NodeSink>(_ changes: [Change], uploadCursor: Int64, into sink: inout S) -> Ref {
    let tagged = { (v: Int64) in RefOrTagged.taggedRaw(UInt64(v)) }
    let ints = { (values: [Int64], sink: inout S) in
      sink.append(NodeEncoder.integerNode(values, width: 64))
    }
    // `binaries` writes a leaf of any size these tests use.
    let ctHistory = (try? StringLeafEncoder.binaries(changes.map { _ in [] }, into: &sink)) ?? .null
    let changesets = (try? StringLeafEncoder.binaries(changes.map(\.changeset), into: &sink)) ?? .null
    let reciprocal = (try? StringLeafEncoder.binaries(changes.map { _ in nil }, into: &sink)) ?? .null
    let remote = ints(changes.map { _ in 0 }, &sink)
    let origins = ints(changes.map(\.originFileIdent), &sink)
    let timestamps = ints(changes.map { _ in 1_000 }, &sink)
    var slots = [Int64](repeating: tagged(0), count: 21)
    slots[0] = Int64(ctHistory.rawValue)
    slots[7] = tagged(uploadCursor)
    slots[13] = Int64(changesets.rawValue)
    slots[14] = Int64(reciprocal.rawValue)
    slots[15] = Int64(remote.rawValue)
    slots[16] = Int64(origins.rawValue)
    slots[17] = Int64(timestamps.rawValue)
    slots[18] = 0
    slots[19] = 0
    slots[20] = 0
    return sink.append(NodeEncoder.integerNode(slots, width: 64, hasRefs: true))
  }

  /// Sets the table type of `tableName` to asymmetric (table top slot 12).
  static func makeAsymmetric(_ tableName: String, in bytes: inout [UInt8]) throws {
    struct Missing: Error {}
    let group = try Group(reader: ByteReader(bytes: bytes))
    guard let table = group.table(named: tableName) else { throw Missing() }
    let top = try ArrayNode(group.reader, table.ref)
    let width = top.width / 8
    guard width >= 1 else { throw Missing() }
    put(&bytes, at: top.payload + 12 * width, UInt64(bitPattern: RefOrTagged.taggedRaw(UInt64(TableType.topLevelAsymmetric.rawValue))), width: width)
  }

  /// Writes `value` little-endian in `width` bytes at `offset`.
  public static func put(_ bytes: inout [UInt8], at offset: Int, _ value: UInt64, width: Int) {
    for b in 0..<width { bytes[offset + b] = UInt8(truncatingIfNeeded: value >> (8 * b)) }
  }
}

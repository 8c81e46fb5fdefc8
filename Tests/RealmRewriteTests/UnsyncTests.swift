import Foundation
import RealmFormat
import RealmModel
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmRewrite
@testable import RealmStorage

/// Issue 19: synced realms built in the shapes Realm Core's sync client leaves
/// (``SyncedFiles``): what `open` reports (pending uploads, subscriptions), and `unsync` of
/// each shape: the same classes, objects, keys, primary keys and links, a local history, the
/// sync bookkeeping gone; refusals leave the file byte for byte as it was.
@Suite struct UnsyncTests {
  static func write(_ bytes: [UInt8]) throws -> (dir: URL, path: String) {
    let dir = try Fixtures.temporaryDirectory()
    let path = dir.appendingPathComponent("synced.realm").path
    try TestFiles.write(bytes, to: path)
    return (dir, path)
  }

  static func bytes(_ path: String) throws -> [UInt8] { try TestFiles.bytes(path) }

  /// Unsyncing a file holding `damaged` fails with a `corrupt` error that says `reason`, and
  /// the file stays byte for byte as it was; `afterwards` looks at the scratch directory
  /// before it is removed.
  static func expectCorruptRefusal(
    of damaged: [UInt8], saying reason: String, afterwards: (_ dir: URL) throws -> Void = { _ in }
  ) throws {
    let (dir, path) = try write(damaged)
    defer { try? FileManager.default.removeItem(at: dir) }
    let error = try #require(throws: StorageError.self) { try Unsyncer.unsync(path: path) }
    expectEqual(error.code, .corrupt)
    #expect("\(error)".contains(reason), "\(error)")
    #expect(TestFiles.same(try bytes(path), damaged))
    try afterwards(dir)
  }

  /// Every object of every class of `group`, by class, with its key, in key order.
  static func objects(_ group: Group, classes: [String]) throws -> [String: [(Int64, [RealmValue])]] {
    var all: [String: [(Int64, [RealmValue])]] = [:]
    for name in classes {
      guard let table = group.table(forClass: name), !table.isEmbedded else { continue }
      var objects: [(Int64, [RealmValue])] = []
      try group.forEachObject(in: table) { key, values in objects.append((key, values)) }
      all[name] = objects
    }
    return all
  }

  @Test(arguments: [0, 1, 5])
  func pendingUploadsAreCountedAsRealmCoreCounts(pending: Int) throws {
    var shape = SyncedFiles.Shape()
    (shape.history, shape.uploadCursor) = SyncedFiles.history(pending: pending)
    let group = try Group(reader: ByteReader(bytes: try SyncedFiles.build(shape)))
    let state = try #require(try group.syncState())
    expectEqual(state.kind, .partition)
    #expect(state.historyType == .syncClient && state.historySchemaVersion == 12)
    expectEqual(state.clientFileIdent, 7)
    expectEqual(state.historyEntries, shape.history.count)
    expectEqual(state.pendingUploads, pending)
    #expect(state.subscriptions == nil && state.syncTables.isEmpty)
  }

  /// An upload cursor older than the history's first entry counts from that entry: every
  /// non-empty local change of the history.
  @Test func cursorBeforeTheHistoryCountsEveryLocalChange() throws {
    var shape = SyncedFiles.Shape()
    (shape.history, _) = SyncedFiles.history(pending: 3)
    shape.uploadCursor = 0
    let state = try #require(try Group(reader: ByteReader(bytes: try SyncedFiles.build(shape))).syncState())
    expectEqual(state.pendingUploads, 5)  // the 2 uploaded ones count again: the cursor says so
  }

  @Test func flexibleSubscriptionsAreRead() throws {
    let group = try Group(reader: ByteReader(bytes: try SyncedFiles.build(SyncedFiles.flexibleShape())))
    let state = try #require(try group.syncState())
    expectEqual(state.kind, .flexible)
    expectEqual(state.pendingUploads, 2)
    let set = try #require(state.subscriptions)
    #expect(set.version == 1 && set.state == .complete && set.error == nil)
    expectEqual(set.subscriptions, [
      .init(name: "dogs", className: "Dog", query: "name BEGINSWITH \"d\""),
      .init(name: nil, className: "Person", query: "TRUEPREDICATE"),
    ])
    expectEqual(Set(state.syncTables.map(\.name)), ["sync_internal_schemas", "flx_subscriptions", "flx_subscription_sets", "flx_pending_bootstrap"])
  }

  @Test(arguments: [false, true])
  func eachShapeConvertsKeepingClassesObjectsAndKeys(flexible: Bool) throws {
    let shape = flexible ? SyncedFiles.flexibleShape() : { () -> SyncedFiles.Shape in
      var s = SyncedFiles.Shape()
      (s.history, s.uploadCursor) = SyncedFiles.history(pending: 1)
      return s
    }()
    let original = try SyncedFiles.build(shape)
    let (dir, path) = try Self.write(original)
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = try Group(reader: ByteReader(bytes: original))
    let schema = try before.schema()
    let objects = try Self.objects(before, classes: schema.classes.map(\.name))

    let result = try Unsyncer.unsync(path: path)
    #expect(result.converted && !result.dryRun)
    let plan = try #require(result.plan)
    expectEqual(plan.sync.pendingUploads, (flexible ? 2 : 1))
    expectEqual(Set(plan.dropped.map(\.name)), (flexible ? ["sync_internal_schemas", "flx_subscriptions", "flx_subscription_sets", "flx_pending_bootstrap"] : []))

    let file = try RealmFile.open(path: path)
    let after = file.group
    #expect(after.historyType == .inRealm && !after.isSynced)
    try expectEqual(after.syncFileIdent(), 0)
    #expect(try after.syncState() == nil)
    #expect(after.tables.allSatisfy { !SyncBookkeeping.isSyncTable($0) })
    var expected = schema
    expected.fileFormat = after.fileFormat
    try expectEqual(after.schema(), expected)
    let copied = try Self.objects(after, classes: schema.classes.map(\.name))
    for (name, list) in objects {
      let got = try #require(copied[name])
      expectEqual(got.map(\.0), list.map(\.0), "keys of \(name)")
      expectEqual(got.map(\.1), list.map(\.1), "values of \(name)")
    }
    #expect(after.check().isEmpty)
  }

  @Test func asymmetricClassWithObjectsBecomesOrdinary() throws {
    let (dir, path) = try Self.write(try SyncedFiles.build(SyncedFiles.flexibleShape(asymmetricEvents: 4)))
    defer { try? FileManager.default.removeItem(at: dir) }
    try expectEqual(RealmFile.open(path: path).group.table(forClass: "Event")?.type, .topLevelAsymmetric)
    let result = try Unsyncer.unsync(path: path)
    let plan = try #require(result.plan)
    expectEqual(plan.convertedAsymmetric, [.init(name: "Event", objects: 4)])
    let table = try #require(try RealmFile.open(path: path).group.table(forClass: "Event"))
    #expect(table.type == .topLevel && table.objectCount == 4)
  }

  @Test func emptyAsymmetricClassIsDropped() throws {
    let (dir, path) = try Self.write(try SyncedFiles.build(SyncedFiles.flexibleShape(asymmetricEvents: 0)))
    defer { try? FileManager.default.removeItem(at: dir) }
    let plan = try #require(try Unsyncer.unsync(path: path).plan)
    #expect(plan.convertedAsymmetric.isEmpty)
    #expect(plan.dropped.contains(.init(name: "Event", objects: 0)))
    #expect(try RealmFile.open(path: path).group.table(forClass: "Event") == nil)
  }

  @Test func dryRunWritesNothingAndOutputLeavesTheOriginal() throws {
    let original = try SyncedFiles.build(SyncedFiles.flexibleShape())
    let (dir, path) = try Self.write(original)
    defer { try? FileManager.default.removeItem(at: dir) }
    var options = UpgradeOptions()
    options.dryRun = true
    let dry = try Unsyncer.unsync(path: path, options: options)
    #expect(dry.converted && dry.dryRun && dry.sizeAfter > 0)
    #expect(TestFiles.same(try Self.bytes(path), original))
    options = UpgradeOptions()
    options.outputPath = dir.appendingPathComponent("local.realm").path
    _ = try Unsyncer.unsync(path: path, options: options)
    #expect(TestFiles.same(try Self.bytes(path), original))
    try expectEqual(RealmFile.open(path: options.outputPath!).group.historyType, .inRealm)
  }

  @Test func localRealmIsLeftAlone() throws {
    let (dir, path) = try Self.write(try CraftedFiles.holders(listCount: 3))
    defer { try? FileManager.default.removeItem(at: dir) }
    let before = try Self.bytes(path)
    let result = try Unsyncer.unsync(path: path)
    #expect(!result.converted && result.plan == nil)
    #expect(TestFiles.same(try Self.bytes(path), before))
    #expect(throws: RewriteError.self) { try Unsyncer.plan(path: path) }
  }

  /// A history whose upload cursor is past the file's version, and a history ref that points
  /// at the table names: a clean `corrupt` error naming the sync history, the file untouched.
  @Test func damagedHistoryGivesACleanError() throws {
    var shape = SyncedFiles.Shape()
    (shape.history, _) = SyncedFiles.history(pending: 1)
    shape.uploadCursor = 1_000
    var pointingElsewhere = try SyncedFiles.build(SyncedFiles.flexibleShape())
    let group = try Group(reader: ByteReader(bytes: pointingElsewhere))
    let names = try ArrayNode(group.reader, group.topRef).ref(0)
    SyncedFiles.put(&pointingElsewhere, at: group.topRef.rawValue + 8 + 8 * 8, UInt64(names.rawValue), width: 8)
    for damaged in [try SyncedFiles.build(shape), pointingElsewhere] {
      try Self.expectCorruptRefusal(of: damaged, saying: "sync history")
    }
  }

  /// A cluster leaf's column ref pointing past the end of the file: refused, untouched.
  @Test func damagedDataIsRefusedUntouched() throws {
    var damaged = try SyncedFiles.build(SyncedFiles.flexibleShape())
    let group = try Group(reader: ByteReader(bytes: damaged))
    let table = try #require(group.table(forClass: "Person"))
    let column = try #require(table.column(named: "name"))
    let leaf = try ArrayNode(group.reader, table.clusterRoot)
    let slot = leaf.payload + (1 + column.leafIndex) * (leaf.width / 8)
    #expect(leaf.width >= 16)
    SyncedFiles.put(&damaged, at: slot, 0x7FF0, width: leaf.width / 8)
    try Self.expectCorruptRefusal(of: damaged, saying: "cannot be converted") { dir in
      let left = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0 != "synced.realm" && !$0.hasSuffix(".lock") }
      #expect(left.isEmpty, "\(left)")
    }
  }

  @Test func encryptedStaysEncryptedWithTheSameKey() throws {
    let (dir, path) = try Self.write(try SyncedFiles.build(SyncedFiles.flexibleShape()))
    defer { try? FileManager.default.removeItem(at: dir) }
    let key = try EncryptionKey(bytes: (0..<64).map { UInt8($0 * 3 & 0xFF) })
    _ = try RealmEncryption.rewrite(path: path, key: nil, newKey: key)
    var options = UpgradeOptions()
    options.encryptionKey = key
    let result = try Unsyncer.unsync(path: path, options: options)
    expectEqual(result.plan?.sync.pendingUploads, 2)
    #expect(try RealmEncryption.looksEncrypted(path: path))
    let file = try RealmFile.open(path: path, key: key)
    #expect(file.group.historyType == .inRealm && file.group.table(forClass: "Person")?.objectCount == 2)
    #expect(throws: StorageError.self) { try RealmFile.open(path: path) }
  }
}

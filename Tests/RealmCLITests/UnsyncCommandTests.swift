import Foundation
import RealmJSON
import RealmModel
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `realmctl unsync` (issue 19) and what `open` shows of a synced realm.
///
/// With `../shared`: every synced realm of `wild` and `fixtures` converts, and Realm Core (the
/// oracle, which refuses the originals: no sync in its build) opens the result as a local
/// realm with the schema realmctl reads from the original, `verify` passes, and its dump is
/// realmctl's dump of the original, by meaning, less the classes the report says it dropped.
@Suite struct UnsyncCommandTests {
  typealias Support = CommandTestSupport

  /// The synced realms of `../shared`: every file whose history is SyncClient or SyncServer.
  static let sharedSyncedFiles: [String] = {
    guard let root = SharedFixtures.url("") else { return [] }
    var paths: [String] = []
    let fm = FileManager.default
    for dir in ["wild/files", "fixtures/realm-core-samples", "fixtures/legacy/realm-core"] {
      let base = root.appendingPathComponent(dir)
      guard let items = try? fm.contentsOfDirectory(atPath: base.path) else { continue }
      for item in items.sorted() {
        let path = dir == "wild/files" ? base.appendingPathComponent(item).path : base.appendingPathComponent("\(item)/original.realm").path
        guard path.hasSuffix(".realm"), fm.fileExists(atPath: path) else { continue }
        let open = CommandRun(["open", path, "--json"])
        guard open.status == 0, let json = try? JSONParser.parse(open.output), case .string(let h)? = json["historyType"] else { continue }
        if h == "SyncClient" || h == "SyncServer" { paths.append(path) }
      }
    }
    return paths
  }()

  @Test(SharedFixtures.enabled) func findsTheSyncedRealmsOfShared() {
    // 6 in this half of wild, 8 realm-core samples, 7 legacy realm-core files.
    #expect(Self.sharedSyncedFiles.count >= 21, "\(Self.sharedSyncedFiles)")
  }

  @Test(SharedFixtures.enabled, RealmOracle.enabled)
  func everySyncedRealmOfSharedConvertsAndRealmOpensIt() throws {
    try Support.inScratchDirectory { dir in
      for (i, path) in Self.sharedSyncedFiles.enumerated() {
        let name = "\(i)-\(URL(fileURLWithPath: path).deletingLastPathComponent().lastPathComponent)"
        let out = dir.appendingPathComponent("\(name).local.realm").path
        let run = CommandRun(["unsync", path, "--output", out, "--json", "-q"])
        expectEqual(run.status, 0, "\(path): \(run.errors)")
        guard run.status == 0, let report = try? JSONParser.parse(run.output) else { continue }
        var dropped = Set<String>()
        if case .array(let items)? = report["dropped"] {
          for item in items { if case .string(let n)? = item["name"] { dropped.insert(n) } }
        }
        #expect(CommandRun(["open", out, "--json"]).text.contains("\"historyType\": \"InRealm\""), "\(path)")

        let schema = CommandRun(["schema", path, "--format", "json"])
        let schemaPath = try Support.write(schema.text, to: dir, as: "\(name).schema.json")
        var version: Int64 = 0
        if let json = try? JSONParser.parse(CommandRun(["open", path, "--json"]).output), case .int(let v)? = json["schemaVersion"] {
          version = v
        }
        // Core 14 upgrades a kept older format on its copy and logs that on standard error.
        let opened = try RealmOracle.core14.open(out, schema: schemaPath, version: version)
        #expect(opened == "ok" || opened.hasPrefix("ok\nRealm.Storage - DB: "), "\(path): \(opened)")
        #expect(try RealmOracle.core14.verifyFailure(out) == nil, "\(path)")
        let realm = try RealmOracle.core14.dump(out)
        let ours = CommandRun(["dump", path]).text.split(separator: "\n").filter { line in
          !dropped.contains { line.hasPrefix("{\"$class\":\"\($0)\"") }
        }.joined(separator: "\n")
        let problems = DumpComparison.compareDumps(
          expected: Array(realm.utf8), actual: Array(ours.utf8), schema: Array(schema.text.utf8))
        #expect(problems.isEmpty, "\(path): \(problems.prefix(5).joined(separator: "\n"))")
      }
    }
  }

  /// Realm Core's `test_sync_history_migration.cpp` made its client files "only partially
  /// synchronized": after a full synchronization, one local change ("Hausdorff" 99 -> 66) "that
  /// will not be uploaded until after migration". The count is Realm's own answer: 1.
  @Test(SharedFixtures.enabled) func realmCoresPartiallySynchronizedFilesHaveOneChangeNotUploaded() throws {
    for version in ["011", "012"] {
      let path = try #require(SharedFixtures.url(
        "fixtures/realm-core-samples/test__resources__history_migration__client_schema_version_\(version)/original.realm")).path
      let json = try JSONParser.parse(CommandRun(["open", path, "--json"]).output)
      expectEqual(json["sync"]?["pendingUploads"], .int(1), "\(version)")
      expectEqual(json["sync"]?["kind"], .string("partition"))
      expectEqual(json["sync"]?["clientFileIdent"], .int(3))
    }
    let server = try #require(SharedFixtures.url(
      "fixtures/realm-core-samples/test__resources__history_migration__server_schema_version_020/original.realm")).path
    let json = try JSONParser.parse(CommandRun(["open", server, "--json"]).output)
    expectEqual(json["sync"]?["kind"], .string("server"))
    expectEqual(json["sync"]?["pendingUploads"], .null)
  }

  /// The synced files built here (flexible, partition-based, with an asymmetric class):
  /// Realm opens each converted file with the original's schema, less the asymmetric class
  /// (which a local schema declares as an ordinary class), and reads realmctl's dump.
  @Test(RealmOracle.enabled) func builtSyncedFilesConvertToFilesRealmOpens() throws {
    try Support.inScratchDirectory { dir in
      var partition = SyncedFiles.Shape()
      (partition.history, partition.uploadCursor) = SyncedFiles.history(pending: 2)
      for (i, shape) in [partition, SyncedFiles.flexibleShape(asymmetricEvents: 3)].enumerated() {
        let path = dir.appendingPathComponent("s\(i).realm").path
        try Support.write(try SyncedFiles.build(shape), to: path)
        let schema = CommandRun(["schema", path, "--format", "json"]).text
        let dump = CommandRun(["dump", path]).text
        expectEqual(CommandRun(["unsync", path, "-q"]).status, 0)
        let schemaPath = try Support.write(schema, to: dir, as: "s\(i).schema.json")
        try expectEqual(RealmOracle.core14.open(path, schema: schemaPath, version: 3), "ok")
        #expect(try RealmOracle.core14.verifyFailure(path) == nil)
        let problems = DumpComparison.compareDumps(
          expected: Array(try RealmOracle.core14.dump(path).utf8), actual: Array(dump.utf8), schema: Array(schema.utf8))
        #expect(problems.isEmpty, "\(problems.prefix(5))")
      }
    }
  }

  /// Element `i` of a JSON array.
  static func item(_ value: JSONValue?, _ i: Int) -> JSONValue? {
    guard case .array(let items)? = value, i < items.count else { return nil }
    return items[i]
  }

  /// `Examples/seed/synced.realm` (used by `make demo` and the docs) is exactly the flexible
  /// shape with an asymmetric class that these tests build and check.
  @Test func exampleSyncedRealmIsTheBuiltShape() throws {
    let example = Snapshot.packageRoot.appendingPathComponent("Examples/seed/synced.realm").path
    try expectEqual(Support.bytes(example), (try SyncedFiles.build(SyncedFiles.flexibleShape(asymmetricEvents: 3))))
  }

  @Test func reportSaysWhatWasDroppedAndConverted() throws {
    try Support.withFile(try SyncedFiles.build(SyncedFiles.flexibleShape(asymmetricEvents: 3)), as: "app.realm") { path, dir in
      let original = try Support.bytes(path)

      let dry = CommandRun(["unsync", path, "--dry-run"])
      expectEqual(dry.status, 0, "\(dry.errors)")
      #expect(TestFiles.same(try Support.bytes(path), original))
      let lines = dry.text.split(separator: "\n").map(String.init)
      expectEqual(lines.first?.hasPrefix("\(path): a local realm would be written (dry run: nothing written): file format 24 -> 24, 10 objects in 4 classes"), true, "\(dry.text)")
      #expect(lines.contains("  Would drop: the sync history (SyncClient, flexible sync, 7 changesets, 2 local changes never uploaded), the client file ident 7"), "\(dry.text)")
      #expect(lines.contains("  Would drop: 2 flexible-sync subscriptions (set version 1, complete)"))
      #expect(lines.contains("    dogs: Dog where name BEGINSWITH \"d\""))
      #expect(lines.contains("    (unnamed): Person where TRUEPREDICATE"))
      #expect(lines.contains { $0.hasPrefix("  Would drop: sync_internal_schemas (2 objects), ") && $0.contains("flx_subscription_sets (2 objects)") })
      #expect(lines.contains("  Would convert asymmetric classes to ordinary classes (their objects were never uploaded): Event (3 objects)"))

      let backup = dir.appendingPathComponent("app.realm.bak").path
      let run = CommandRun(["unsync", path, "--backup", backup, "--json"])
      expectEqual(run.status, 0, "\(run.errors)")
      #expect(TestFiles.same(try Support.bytes(backup), original))
      let json = try JSONParser.parse(run.output)
      expectEqual(json["converted"], .bool(true))
      expectEqual(json["sync"]?["pendingUploads"], .int(2))
      expectEqual(json["sync"]?["kind"], .string("flexible"))
      expectEqual(Self.item(json["sync"]?["subscriptions"]?["subscriptions"], 0)?["query"], .string("name BEGINSWITH \"d\""))
      expectEqual(Self.item(json["asymmetricConverted"], 0)?["name"], .string("Event"))

      let again = CommandRun(["unsync", path])
      expectEqual(again.status, 0)
      expectEqual(again.text, "\(path) is a local realm already (it has no sync history): nothing to convert\n")
    }
  }

  @Test func openShowsWhatSyncHeld() throws {
    try Support.withFile(try SyncedFiles.build(SyncedFiles.flexibleShape()), as: "app.realm") { path, dir in
      let text = CommandRun(["open", path]).text
      #expect(text.contains("Sync:            flexible sync, client file ident 7, 7 changesets in the history\n"), "\(text)")
      #expect(text.contains("Not uploaded:    2 local changes never uploaded\n"))
      #expect(text.contains("Subscriptions:   2 flexible-sync subscriptions (set version 1, complete)\n"))
      #expect(text.contains("\nSubscriptions:\n  dogs: Dog where name BEGINSWITH \"d\"\n  (unnamed): Person where TRUEPREDICATE\n"))
      let json = try JSONParser.parse(CommandRun(["open", path, "--json"]).output)
      expectEqual(json["sync"]?["pendingUploads"], .int(2))
      expectEqual(Self.item(json["sync"]?["subscriptions"]?["subscriptions"], 1)?["name"], .null)
      expectEqual(json["syncMetadataRealm"], .bool(false))
      let local = try Support.copy("alltypes/before.realm", to: dir, as: "local.realm")
      try expectEqual(JSONParser.parse(CommandRun(["open", local, "--json"]).output)["sync"], .null)
      #expect(!CommandRun(["open", local]).text.contains("Sync"))
    }
  }

  /// A synced realm opens only in SDK releases with Device Sync: `open` names them, and names
  /// the 20.x releases, which removed Device Sync, as refusing it; after `unsync` they open it,
  /// and the report says so.
  @Test func syncedRealmOpensOnlyInReleasesWithDeviceSync() throws {
    try Support.withFile(try SyncedFiles.build(SyncedFiles.flexibleShape()), as: "app.realm") { path, dir in
      let withSync = SDKReleases.text(SDKReleases.joined(SDKReleases.openingAsIs(format: 24).filter(\.deviceSync)))
      let line20x = "Realm Swift 20.0.0-20.0.6, Realm Kotlin 3.0.0, Realm JS 20.0.0-20.2.0, Realm .NET 20.0.0-20.1.0, Realm Dart 20.0.0-20.2.0"
      let text = CommandRun(["open", path]).text
      #expect(text.contains("\nOpens as is in:  \(withSync) (with Device Sync)\n"), "\(text)")
      #expect(withSync.hasPrefix("Realm Swift 10.49.0-10.54.6, Realm Kotlin 1.15.0-2.3.0,") && !withSync.contains("20.0.0"))
      #expect(text.contains("\nRefused by:      \(line20x) (no Device Sync: they open the local realm `realmctl unsync` writes)\n"), "\(text)")
      let json = try JSONParser.parse(CommandRun(["open", path, "--json"]).output)
      guard case .array(let refusing)? = json["sdkReleases"]?["withoutDeviceSync"] else {
        Issue.record("no withoutDeviceSync")
        return
      }
      expectEqual(refusing.map { $0["first"] }, ["20.0.0", "3.0.0", "20.0.0", "20.0.0", "20.0.0"].map { .string($0) })

      let dry = CommandRun(["unsync", path, "--dry-run"])
      #expect(dry.text.contains("\n  Would also open in: \(line20x) (no Device Sync: they refuse a synced realm)\n"), "\(dry.text)")
      let local = dir.appendingPathComponent("local.realm").path
      let run = CommandRun(["unsync", path, "--output", local])
      expectEqual(run.status, 0, "\(run.errors)")
      #expect(run.text.contains("\n  Now also opens in: \(line20x) (no Device Sync: they refuse a synced realm)\n"), "\(run.text)")
      let opened = CommandRun(["open", local]).text
      #expect(opened.contains("\nOpens as is in:  Realm Swift 10.49.0-10.54.6 and 20.0.0-20.0.6, "), "\(opened)")
      #expect(!opened.contains("Refused by"))
      let report = try JSONParser.parse(CommandRun(["unsync", path, "--dry-run", "--json"]).output)
      guard case .array(let also)? = report["alsoOpensIn"] else {
        Issue.record("no alsoOpensIn")
        return
      }
      expectEqual(also.map { $0["sdk"] }, ["Realm Swift", "Realm Kotlin", "Realm JS", "Realm .NET", "Realm Dart"].map { .string($0) })
    }
  }

  /// A damaged history does not stop `open`: the Sync line says what is wrong; `unsync` refuses.
  @Test func openOfADamagedHistoryStillWorks() throws {
    try Support.inScratchDirectory { dir in
      var shape = SyncedFiles.Shape()
      (shape.history, _) = SyncedFiles.history(pending: 1)
      shape.uploadCursor = 1_000
      let path = dir.appendingPathComponent("app.realm").path
      try Support.write(try SyncedFiles.build(shape), to: path)
      let open = CommandRun(["open", path])
      expectEqual(open.status, 0)
      #expect(open.text.contains("Sync:            the sync history cannot be read: the sync client history's upload cursor (version 1000) is past the file's version 7\n"), "\(open.text)")
      let json = try JSONParser.parse(CommandRun(["open", path, "--json"]).output)
      expectEqual(json["sync"], .null)
      #expect(json["syncError"] != nil)
      let unsync = CommandRun(["unsync", path])
      expectEqual(unsync.status, 65)
      #expect(unsync.errors.contains("its sync history or sync tables are damaged"), "\(unsync.errors)")
    }
  }

  /// Exactly the app files committed as `sync_metadata.realm` (their repository path in
  /// `wild/manifest.jsonl`) and Realm Core's `sync-metadata-v*` samples are named sync metadata
  /// realms; no other readable file is.
  @Test(SharedFixtures.enabled) func syncMetadataRealmsAreExactlyTheMetadataFiles() throws {
    var files: [(path: String, isMetadata: Bool)] = []
    let wild = try #require(SharedFixtures.url("wild"))
    let manifest = try String(contentsOf: wild.appendingPathComponent("manifest.jsonl"), encoding: .utf8)
    for line in manifest.split(separator: "\n") {
      let entry = try JSONParser.parse(Array(line.utf8))
      guard case .string(let file)? = entry["file"], case .string(let origin)? = entry["path"] else { continue }
      files.append((wild.appendingPathComponent("files/\(file)").path, origin.hasSuffix("sync_metadata.realm")))
    }
    let shared = FixtureLocation.shared
    for sample in shared.listing(SharedFixtures.realmCoreSamples) where !sample.hasSuffix(".md") {
      files.append((try shared.path(SharedFixtures.realmCoreSample(sample)), sample.contains("sync-metadata")))
    }
    var named = 0
    for (path, expected) in files {
      let run = CommandRun(["open", path, "--json"])
      guard run.status == 0 else { continue }
      try expectEqual(JSONParser.parse(run.output)["syncMetadataRealm"], .bool(expected), "\(path)")
      if expected { named += 1 }
    }
    #expect(named >= 9, "\(named)")  // 6 app files of this half of wild, 3 of Realm Core's samples
  }

  /// Realm Core's own sync metadata realm (`test/object-store/sync-metadata-v6.realm`).
  @Test(SharedFixtures.enabled) func openNamesSyncMetadataRealms() throws {
    let path = try #require(SharedFixtures.url("fixtures/realm-core-samples/test__object-store__sync-metadata-v6/original.realm")).path
    let open = CommandRun(["open", path])
    #expect(open.text.contains("Sync metadata:   yes: the sync client's own realm (users, their tokens, file actions; 13 users), not app data\n"), "\(open.text)")
    try expectEqual(JSONParser.parse(CommandRun(["open", path, "--json"]).output)["syncMetadataRealm"], .bool(true))
    #expect(CommandRun(["unsync", path, "--dry-run"]).text.contains("is a local realm already"))
  }

  /// Synced files damaged node by node (``RobustnessMutator``, which walks the history's nodes
  /// too): `open` and `unsync` each succeed or exit 65, never crash; a refused in-place
  /// conversion leaves the file byte for byte as it was; a converted file checks clean.
  @Test func damagedSyncedFilesConvertOrFailCleanly() throws {
    try Support.withFile(try SyncedFiles.build(SyncedFiles.flexibleShape(asymmetricEvents: 2)), as: "source.realm") { source, dir in
      let mutator = try RobustnessMutator(path: source)
      let path = dir.appendingPathComponent("damaged.realm").path
      var random = SeededRandom(seed: 0x5EED_0019)
      var outcomes: [Int32: Int] = [:]
      let kinds = RobustnessMutator.Kind.allCases
      for n in 0..<120 {
        let (bytes, description) = mutator.mutate(kinds[n % kinds.count], &random)
        try Support.write(bytes, to: path)
        let open = CommandRun(["open", path, "--json"])
        #expect([0, 65].contains(open.status), "#\(n) \(description): open \(open.status) \(open.errors)")
        let run = CommandRun(["unsync", path, "-q"])
        outcomes[run.status, default: 0] += 1
        #expect([0, 65].contains(run.status), "#\(n) \(description): unsync \(run.status) \(run.errors)")
        if run.status == 0 {
          #expect(try Support.problems(path).isEmpty, "#\(n) \(description): the converted file does not check clean")
        } else {
          #expect(TestFiles.same(try Support.bytes(path), bytes), "#\(n) \(description): refused but changed")
          #expect(run.errors.hasPrefix("Error: "), "#\(n) \(description): \(run.errors)")
        }
      }
      #expect(outcomes[0, default: 0] > 0 && outcomes[65, default: 0] > 0, "\(outcomes)")
    }
  }

  /// A synced realm open in an app (its lock held): exit 75, untouched.
  @Test func refusedWhileTheRealmIsOpenElsewhere() throws {
    try Support.withFile(try SyncedFiles.build(SyncedFiles.flexibleShape()), as: "a.realm") { path, _ in
      let before = try Support.bytes(path)
      let fd = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      try #require(fd >= 0)
      defer { close(fd) }
      try #require(flock(fd, LOCK_SH) == 0)
      let run = CommandRun(["unsync", path])
      expectEqual(run.status, 75, "\(run.errors)")
      #expect(TestFiles.same(try Support.bytes(path), before))
      flock(fd, LOCK_UN)
      expectEqual(CommandRun(["unsync", path]).status, 0)
    }
  }

  /// An encrypted synced realm: without its key refused (65) and untouched; with it, the
  /// local realm is encrypted with the same key and Realm Core reads it with that key.
  @Test func encryptedSyncedRealmStaysEncrypted() throws {
    try Support.withFile(try SyncedFiles.build(SyncedFiles.flexibleShape()), as: "app.realm") { path, _ in
      let key = EncryptionCommandTests.k1
      expectEqual(CommandRun(["encrypt", path, "--key-file", key]).status, 0)
      let encrypted = try Support.bytes(path)
      let without = CommandRun(["unsync", path])
      #expect(without.status == 65 && without.errors.contains("is encrypted"), "\(without.errors)")
      #expect(TestFiles.same(try Support.bytes(path), encrypted))
      let run = CommandRun(["unsync", path, "--key-file", key])
      expectEqual(run.status, 0, "\(run.errors)")
      expectEqual(CommandRun(["open", path]).status, 65)
      let open = CommandRun(["open", path, "--key-file", key])
      #expect(open.text.contains("History:         InRealm") && open.text.contains("Encrypted:       yes"), "\(open.text)")
      if RealmOracle.core14.isAvailable {
        #expect(try RealmOracle.core14.verifyFailure(path, key: EncryptionCommandTests.k1Hex) == nil)
      }
    }
  }

  @Test func refusals() throws {
    try Support.withFile(try SyncedFiles.build(SyncedFiles.flexibleShape()), as: "app.realm") { path, dir in
      let original = try Support.bytes(path)
      let out = dir.appendingPathComponent("out.realm").path
      expectEqual(CommandRun(["unsync", path, "--output", out, "--backup", "b"]).status, 64)
      expectEqual(CommandRun(["unsync", path, "--output", path]).status, 64)
      expectEqual(CommandRun(["unsync", dir.appendingPathComponent("missing.realm").path]).status, 66)
      try Support.write([1, 2, 3], to: out)
      let exists = CommandRun(["unsync", path, "--output", out])
      expectEqual(exists.status, 73, "\(exists.errors)")
      expectEqual(CommandRun(["unsync", path, "--key", String(repeating: "ab", count: 64)]).status, 65)
      #expect(TestFiles.same(try Support.bytes(path), original))
    }
  }
}

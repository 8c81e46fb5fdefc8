import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmMigration
@testable import RealmStorage
import RealmFormat
import RealmModel
import RealmRewrite

/// Issue 3, "done when" 3: a real migration of a large file (100,000 Person objects) killed
/// with SIGKILL at many moments spread over the whole write. After each kill the file holds
/// exactly the old or exactly the new version, `Group.check()` is clean, and running the same
/// migration again (as a user would after the crash) gives exactly the reference result.
///
/// Two writes are tested: adding a property (a streamed rewrite through
/// ``AtomicFileReplacement``) and renaming one (a copy-on-write commit in place through
/// ``WriteTransaction``). The migration runs in a child process (this test binary re-launched
/// on ``migrateInChildProcess()``) that SIGKILLs itself at the chosen fault point, so every
/// run is deterministic.
@Suite(.serialized) struct MigrationCrashTests {
  static let fileEnvironment = "REALMCTL_TEST_MIGRATION_CRASH_FILE"
  static let planEnvironment = "REALMCTL_TEST_MIGRATION_CRASH_PLAN"
  static let pointEnvironment = "REALMCTL_TEST_MIGRATION_CRASH_AT"
  static let keyEnvironment = "REALMCTL_TEST_MIGRATION_CRASH_KEY"
  /// The plan text that makes the child encrypt the file (`realmctl encrypt`) instead.
  static let encryptPlan = "ENCRYPT"
  /// The plan text that makes the child convert the file to format 22 in place
  /// (`realmctl convert --file-format 22`) instead.
  static let convertPlan = "CONVERT22"
  /// Objects of the format-23 runs (issue 16).
  static let format23ObjectCount = 20_000
  /// The key of the encrypted runs (Realm's fixture key K1: bytes 0...63).
  static let key = try! EncryptionKey(bytes: Array(0..<64))
  static let keyHex = (0..<64).map { String(format: "%02x", $0) }.joined()
  /// Objects of the encrypted runs (smaller: every page is also encrypted and checked).
  static let encryptedObjectCount = 20_000
  /// Objects of the large file (the rewrites, the in-place rename, the column-wise transform).
  /// By default 25,000, in many clusters, which the small write buffers cut into
  /// dozens of system calls of every kind; the kill points are the same kinds either way. The
  /// full sweep (`REALMCTL_FULL_CRASH_SWEEP=1`) migrates 100,000, whose many more bulk writes
  /// it spreads its kills over.
  static let objectCount = FaultPointSweep.isFull ? 100_000 : 25_000
  /// Small buffers: the write is made of many system calls to interrupt.
  static let writeBufferSize = 32 << 10

  static let v1Plan = """
    {"schemaVersion": 1, "schema": [{"name": "Person", "properties":
      {"firstName": "string", "lastName": "string", "age": "int"}}]}
    """
  /// Adding an indexed property (which has no in-place path): every object is rewritten.
  static let addPlan = """
    {"schemaVersion": 2, "schema": [{"name": "Person", "properties":
      {"firstName": "string", "lastName": "string", "age": "int",
       "email": {"type": "string", "optional": true, "indexed": true}}}]}
    """
  /// Renaming a property and adding one: committed in place (names, version, one new column
  /// leaf per cluster).
  static let renamePlan = """
    {"schemaVersion": 2, "schema": [{"name": "Person", "properties":
      {"firstName": "string", "lastName": "string", "yearsSinceBirth": "int", "nickname": "string?"}}],
     "migrations": [{"version": 2, "steps": [
       {"op": "renameProperty", "class": "Person", "from": "age", "to": "yearsSinceBirth"}]}]}
    """

  /// A transform computed column by column: a new string column from two others and an
  /// existing column recomputed for some objects, committed in place.
  static let transformPlan = """
    {"schemaVersion": 2, "schema": [{"name": "Person", "properties":
      {"firstName": "string", "lastName": "string", "age": "int", "fullName": "string"}}],
     "migrations": [{"version": 2, "steps": [
       {"op": "transform", "class": "Person", "set": {"fullName": "old.firstName + ' ' + old.lastName"}},
       {"op": "transform", "class": "Person", "where": "age > 60", "set": {"age": "old.age - 60"}}]}]}
    """

  static func plan(_ text: String) throws -> MigrationPlan {
    try PlanDecoder.decode(Array(text.utf8))
  }

  /// The large v1 file, built once per process.
  static let largeFile: Result<[UInt8], any Error> = Result { try buildFile(objectCount: objectCount) }

  /// The v1 file in format 23 (Realm Core 13), for the format-keeping runs of issue 16.
  static let format23File: Result<[UInt8], any Error> = Result {
    try buildFile(objectCount: format23ObjectCount, format: .v23)
  }

  /// The smaller v1 file of the encrypted runs, encrypted with ``key``.
  static let encryptedFile: Result<[UInt8], any Error> = Result {
    let plain = try buildFile(objectCount: encryptedObjectCount)
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("plain.realm").path
    try write(plain, to: path)
    try RealmEncryption.rewrite(path: path, key: nil, newKey: key)
    return try bytes(path)
  }

  /// The plaintext of an encrypted file's bytes (never-written pages as zeros).
  static func decrypted(_ encrypted: [UInt8]) throws -> [UInt8] {
    let owner = ByteReader(bytes: encrypted)
    let file = try DecryptedFile(raw: owner.base, owner: owner.owner!, key: key)
    var out = [UInt8](repeating: 0, count: EncryptedLayout.completeDataPages(fileSize: encrypted.count) * 4096)
    for page in 0..<(out.count / 4096) {
      let result = out.withUnsafeMutableBytes { file.read(page: page, into: $0.baseAddress! + page * 4096) }
      switch result {
      // A first write cut off by the kill: a new page nothing refers to yet.
      case .decrypted, .staleZeroPage, .uninitialized, .interruptedFirstWrite: continue
      default: throw FormatError.corrupt("page \(page): \(result.realmWording)")
      }
    }
    return out
  }

  static func buildFile(objectCount: Int, format: WritableFileFormat = .current) throws -> [UInt8] {
    let schema = try plan(v1Plan).targetSchema
    var random = SeededRandom(seed: 3)
    let first = ["Ada", "Grace", "Niklaus", "Edsger", "Barbara", "Ken", "王", "Zoë"]
    var objects: [(className: String, key: Int64?, values: [RealmValue])] = []
    objects.reserveCapacity(objectCount)
    for i in 0..<objectCount {
      let name = first[Int(random.next() % UInt64(first.count))]
      objects.append(
        ("Person", nil, [.string(name), .string("Surname\(i)"), .int(Int64(random.next() % 120))]))
    }
    return try RealmFileBuilder.build(schema: schema, objects: objects, fileFormat: format)
  }

  // MARK: - Child process

  @Test(.enabled(if: ProcessInfo.processInfo.environment[fileEnvironment] != nil, SkipReason.childProcessOnly))
  func migrateInChildProcess() throws {
    let env = ProcessInfo.processInfo.environment
    let path = try #require(env[Self.fileEnvironment])
    let planText = try #require(env[Self.planEnvironment])
    var options = MigrationOptions()
    options.writeBufferSize = Self.writeBufferSize
    let hook = try #require(ChildTestRun.killHook(at: env[Self.pointEnvironment]))
    options.faultInjection = hook
    if env[Self.keyEnvironment] != nil { options.encryptionKey = Self.key }
    if planText == Self.encryptPlan {
      try RealmEncryption.rewrite(path: path, key: nil, newKey: Self.key, faultInjection: options.faultInjection)
      return
    }
    if planText == Self.convertPlan {
      try Self.convert(path, options: options)
      return
    }
    _ = try Migrator.migrate(path: path, plan: try Self.plan(planText), options: options)
  }

  /// `convert --file-format 22` in place, with the migration's test hooks.
  static func convert(_ path: String, options: MigrationOptions) throws {
    var upgrade = UpgradeOptions()
    upgrade.fileFormat = .v22
    upgrade.faultInjection = options.faultInjection
    upgrade.writeBufferSize = options.writeBufferSize
    _ = try Upgrader.upgrade(path: path, options: upgrade)
  }

  /// Runs what the reference describes on `path` in-process.
  static func apply(_ ref: Reference, to path: String, options: MigrationOptions = MigrationOptions()) throws {
    var options = options
    options.encryptionKey = ref.encrypted ? key : nil
    if ref.planText == encryptPlan {
      try RealmEncryption.rewrite(path: path, key: nil, newKey: key, faultInjection: options.faultInjection)
    } else if ref.planText == convertPlan {
      try convert(path, options: options)
    } else {
      _ = try Migrator.migrate(path: path, plan: try plan(ref.planText), options: options)
    }
  }

  /// The key the result of `ref` is read with.
  static func resultKey(_ ref: Reference) -> EncryptionKey? {
    ref.encrypted || ref.planText == encryptPlan ? key : nil
  }

  // MARK: - Inspection

  static func logicalState(_ bytes: [UInt8]) throws -> LogicalState { try LogicalState(bytes) }

  static func bytes(_ path: String) throws -> [UInt8] { try TestFiles.bytes(path) }

  static func write(_ data: [UInt8], to path: String) throws { try TestFiles.write(data, to: path) }

  /// What one killed child left behind.
  struct Run: Sendable {
    var point: FaultPoint
    var killed: Bool
    var isOld: Bool
    var isNew: Bool
    var problems: [String]
    var strayTemporaryFiles: Int
    /// After migrating the killed file again: nil when not re-migrated, else whether it
    /// reached the reference result.
    var remigratedToReference: Bool?
  }

  typealias Results = IndexedResults<Result<Run, any Error>>

  struct Reference: Sendable {
    var oldBytes: [UInt8]
    var newBytes: [UInt8]
    var oldState: LogicalState
    var newState: LogicalState
    var planText: String
    /// The old file is encrypted with ``key`` (and so is the new one).
    var encrypted = false
    /// Schema JSON and JSON Lines dump of the new version.
    var newSchema: [UInt8]
    var newDump: [UInt8]
  }

  /// Runs the migration in a child killed at `point` on a fresh copy in `dir`, inspects the file,
  /// and (when `remigrate`) migrates it again in-process.
  static func killAndInspect(_ ref: Reference, dir: URL, at point: FaultPoint, remigrate: Bool) throws -> Run {
    let fm = FileManager.default
    for name in (try? fm.contentsOfDirectory(atPath: dir.path)) ?? [] {
      try? fm.removeItem(at: dir.appendingPathComponent(name))
    }
    let path = dir.appendingPathComponent("crash.realm").path
    try write(ref.oldBytes, to: path)
    var env = [fileEnvironment: path, planEnvironment: ref.planText, pointEnvironment: ChildTestRun.environmentValue(of: point)]
    if ref.encrypted { env[keyEnvironment] = "1" }
    let killed = ChildTestRun.wasKilled(try ChildTestRun.run("migrateInChildProcess", environment: env))

    let after = try bytes(path)
    let isOld: Bool
    let isNew: Bool
    if point.stage == .replacement {
      // A rewrite is renamed into place whole: the file is byte-for-byte one of the two.
      isOld = TestFiles.same(after, ref.oldBytes)
      isNew = TestFiles.same(after, ref.newBytes)
    } else {
      let state = try logicalState(ref.encrypted ? decrypted(after) : after)
      isOld = state == ref.oldState
      isNew = state == ref.newState
    }
    // Both references were checked once; identical bytes give the identical (clean) result.
    let identical = TestFiles.same(after, ref.oldBytes) || TestFiles.same(after, ref.newBytes)
    let fileKey = isNew ? resultKey(ref) : (ref.encrypted ? key : nil)
    let problems = identical ? [] : try RealmFile.open(path: path, key: fileKey).group.check().map { "\($0)" }
    let stray = ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains(".realmctl-tmp-") }.count

    var remigrated: Bool?
    if remigrate && !(isNew && ref.planText == encryptPlan) {
      try apply(ref, to: path)
      let again = try bytes(path)
      // The next replacement deletes what a killed one left behind.
      let left = ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.contains(".realmctl-tmp-") }
      #expect(left.isEmpty, "killed at \(point): stale temporary files remain: \(left)")
      if point.stage == .replacement {
        remigrated = TestFiles.same(again, ref.newBytes)
      } else {
        // A new in-place commit may allocate elsewhere than the reference (the killed one may
        // have grown the file), so compare by meaning: schema, objects, integrity.
        let k = resultKey(ref)
        var same = TestFiles.same(try RealmDumper.schemaJSON(path, key: k), ref.newSchema)
        if same { same = try RealmFile.open(path: path, key: k).group.check().isEmpty }
        if same { same = TestFiles.same(try RealmDumper.dumpJSONL(path, key: k), ref.newDump) }
        remigrated = same
      }
    }
    return Run(
      point: point, killed: killed, isOld: isOld, isNew: isNew, problems: problems,
      strayTemporaryFiles: stray, remigratedToReference: remigrated)
  }

  /// The crash loop: reference run, choice of kill points, two children at a time.
  func crashLoop(
    planText: String, expectedMethod: MigrationResult.Method?, expectedPath: MigrationResult.WritePath? = nil,
    minimumKills: Int, encrypted: Bool = false, file: Result<[UInt8], any Error>? = nil, newFormat: UInt8? = nil
  ) throws -> [Run] {
    let oldBytes = try file?.get() ?? (encrypted ? Self.encryptedFile.get() : Self.largeFile.get())
    let refDir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: refDir) }
    let refPath = refDir.appendingPathComponent("reference.realm").path
    try Self.write(oldBytes, to: refPath)
    let recorder = FaultPointRecorder()
    var options = MigrationOptions()
    options.writeBufferSize = Self.writeBufferSize
    options.faultInjection = recorder.hook
    let oldKey = encrypted ? Self.key : nil
    #expect(try RealmFile.open(path: refPath, key: oldKey).group.check().isEmpty)
    let oldState = try Self.logicalState(encrypted ? Self.decrypted(oldBytes) : oldBytes)
    var reference = Reference(
      oldBytes: oldBytes, newBytes: [], oldState: oldState, newState: oldState, planText: planText,
      encrypted: encrypted, newSchema: [], newDump: [])
    if planText == Self.encryptPlan {
      try RealmEncryption.rewrite(path: refPath, key: nil, newKey: Self.key, faultInjection: options.faultInjection)
    } else if planText == Self.convertPlan {
      try Self.convert(refPath, options: options)
    } else {
      var migrationOptions = options
      migrationOptions.encryptionKey = oldKey
      let result = try Migrator.migrate(path: refPath, plan: try Self.plan(planText), options: migrationOptions)
      expectEqual(result.method, expectedMethod)
      if let expectedPath { expectEqual(result.writePath, expectedPath) }
    }
    let newBytes = try Self.bytes(refPath)
    let newKey = Self.resultKey(reference)
    #expect(try RealmFile.open(path: refPath, key: newKey).group.check().isEmpty)
    reference.newBytes = newBytes
    reference.newState = try Self.logicalState(newKey != nil ? Self.decrypted(newBytes) : newBytes)
    if let newFormat { expectEqual(reference.newState.format, newFormat) }
    reference.newSchema = try RealmDumper.schemaJSON(refPath, key: newKey)
    reference.newDump = try RealmDumper.dumpJSONL(refPath, key: newKey)
    if planText == Self.encryptPlan {
      #expect(reference.oldBytes != reference.newBytes)
    } else {
      #expect(reference.oldState != reference.newState)
    }

    // The same migration twice gives the same bytes (the rewrite check relies on it).
    let twice = refDir.appendingPathComponent("twice.realm").path
    try Self.write(oldBytes, to: twice)
    try Self.apply(reference, to: twice)
    #expect(TestFiles.same(try Self.bytes(twice), newBytes), "the migration is not deterministic")

    // By default every kind of point of the write (FaultPointSweep); the full sweep: every
    // point that is not a node write, plus node writes spread evenly over the write.
    let bulk: (FaultPoint) -> Bool = {
      if case .write = $0.operation { return $0.stage == .replacement || $0.stage == .nodes }
      return false
    }
    let chosen = FaultPointSweep.choose(recorder.points) {
      ChildTestRun.killPoints(recorder.points, bulk: bulk, total: minimumKills)
    }

    let referenceRun = reference
    let results = Results(count: chosen.count)
    let killPoints = chosen
    let workers = 2
    let dirs = try (0..<workers).map { _ in try Fixtures.temporaryDirectory() }
    defer { for d in dirs { try? FileManager.default.removeItem(at: d) } }
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      for i in stride(from: worker, to: killPoints.count, by: workers) {
        // Migrating again after every eighth kill, and after the last one.
        let remigrate = i % 8 == 0 || i == killPoints.count - 1
        results.set(i, Result { try Self.killAndInspect(referenceRun, dir: dirs[worker], at: killPoints[i], remigrate: remigrate) })
      }
    }
    var runs: [Run] = []
    for result in results.values { runs.append(try #require(try result?.get())) }
    for run in runs {
      #expect(run.killed, "child for \(run.point) was not killed")
      #expect(run.isOld != run.isNew, "killed at \(run.point): neither (or both) the old and the new version")
      #expect(run.problems.isEmpty, "killed at \(run.point): \(run.problems.prefix(3))")
      if let ok = run.remigratedToReference { #expect(ok, "killed at \(run.point): migrating again did not give the reference") }
    }
    // Once the file is new it stays new for every later kill point.
    if let firstNew = runs.firstIndex(where: \.isNew) {
      #expect(runs[firstNew...].allSatisfy { $0.isNew }, "the file went back to the old version after \(runs[firstNew].point)")
    }
    return runs
  }

  /// The rewrite: about 1.4 MB streamed into `crash.realm.realmctl-tmp-*`, synced, renamed.
  @Test func killedRewritingMigrationLeavesOldOrNewVersion() throws {
    let runs = try crashLoop(planText: Self.addPlan, expectedMethod: .rewritten, minimumKills: 54)
    if FaultPointSweep.isFull { #expect(runs.count >= 50) }
    #expect(runs.contains(where: \.isOld) && runs.contains(where: \.isNew))
    // The switch happens at the rename, and not before.
    let rename = try #require(runs.firstIndex { $0.point.operation == .rename })
    #expect(runs[...rename].allSatisfy { $0.isOld })
    #expect(runs[(rename + 1)...].allSatisfy { $0.isNew })
    #expect(runs.count > rename + 1, "no kill point after the rename")
    // A kill before the rename leaves the partial temporary file behind (it is never read).
    #expect(runs.contains { $0.strayTemporaryFiles > 0 })
  }

  /// The in-place commit: every fault point of the transaction, before and after.
  @Test func killedInPlaceRenameLeavesOldOrNewVersion() throws {
    let runs = try crashLoop(planText: Self.renamePlan, expectedMethod: .inPlace, minimumKills: 50)
    #expect(runs.contains(where: \.isOld) && runs.contains(where: \.isNew))
    // The switch happens exactly when the select bit is written.
    let flip = try #require(runs.firstIndex { $0.point.stage == .selectBit && !$0.point.isBefore })
    expectEqual(runs.firstIndex(where: \.isNew), flip)
  }

  /// Issue 8: the in-place commit on an encrypted realm. Every page write is an IV-table entry,
  /// an fsync, then the page: a kill between the select-bit page's entry and the page itself
  /// must leave the old version (Realm's reader falls back to iv2/hmac2).
  @Test func killedInPlaceRenameOfEncryptedRealmLeavesOldOrNewVersion() throws {
    let runs = try crashLoop(planText: Self.renamePlan, expectedMethod: .inPlace, minimumKills: 30, encrypted: true)
    #expect(runs.contains(where: \.isOld) && runs.contains(where: \.isNew))
    let flipWrites = runs.filter { $0.point.stage == .selectBit && !$0.point.isBefore && $0.point.operation != .sync }
    // The select-bit stage writes page 0's entry, then page 0: only the second makes it new.
    let entryWrite = try #require(runs.firstIndex { $0.point.stage == .selectBit && !$0.point.isBefore })
    #expect(runs[entryWrite].isOld, "after writing only the IV entry of page 0 the file must be old")
    let pageWrite = try #require(flipWrites.dropFirst().first)
    expectEqual(runs.firstIndex(where: \.isNew), runs.firstIndex { $0.point == pageWrite.point })
  }

  /// Issue 8: the rewrite of an encrypted realm (streamed encrypted into the temporary file).
  @Test func killedRewriteOfEncryptedRealmLeavesOldOrNewVersion() throws {
    let runs = try crashLoop(planText: Self.addPlan, expectedMethod: .rewritten, minimumKills: 30, encrypted: true)
    let rename = try #require(runs.firstIndex { $0.point.operation == .rename })
    #expect(runs[...rename].allSatisfy { $0.isOld })
    #expect(runs[(rename + 1)...].allSatisfy { $0.isNew })
  }

  /// Issue 8: `realmctl encrypt` in place, killed anywhere: the plain or the encrypted file.
  @Test func killedEncryptLeavesPlainOrEncryptedFile() throws {
    let runs = try crashLoop(planText: Self.encryptPlan, expectedMethod: nil, minimumKills: 20)
    let rename = try #require(runs.firstIndex { $0.point.operation == .rename })
    #expect(runs[...rename].allSatisfy { $0.isOld })
    #expect(runs[(rename + 1)...].allSatisfy { $0.isNew })
  }

  /// A column-wise transform: every fault point of its in-place commit, before and after.
  @Test func killedColumnWiseTransformLeavesOldOrNewVersion() throws {
    let runs = try crashLoop(planText: Self.transformPlan, expectedMethod: .inPlace, expectedPath: .columns, minimumKills: 50)
    #expect(runs.contains(where: \.isOld) && runs.contains(where: \.isNew))
    let flip = try #require(runs.firstIndex { $0.point.stage == .selectBit && !$0.point.isBefore })
    expectEqual(runs.firstIndex(where: \.isNew), flip)
  }

  /// Issue 16: an in-place migration of a format-23 file keeps format 23 and is killed at
  /// every fault point of its commit: the file is the old or the new version, both format 23.
  @Test func killedInPlaceMigrationOfFormat23FileLeavesOldOrNewVersion() throws {
    let runs = try crashLoop(
      planText: Self.renamePlan, expectedMethod: .inPlace, minimumKills: 30, file: Self.format23File, newFormat: 23)
    #expect(runs.contains(where: \.isOld) && runs.contains(where: \.isNew))
    let flip = try #require(runs.firstIndex { $0.point.stage == .selectBit && !$0.point.isBefore })
    expectEqual(runs.firstIndex(where: \.isNew), flip)
    try expectEqual(Self.logicalState(Self.format23File.get()).format, 23)
  }

  /// Issue 16: `convert --file-format 22` of a format-23 file in place, killed anywhere: the
  /// format-23 file or the converted format-22 file, nothing between.
  @Test func killedConversionDownTo22LeavesOldOrNewFile() throws {
    let runs = try crashLoop(
      planText: Self.convertPlan, expectedMethod: nil, minimumKills: 30, file: Self.format23File, newFormat: 22)
    let rename = try #require(runs.firstIndex { $0.point.operation == .rename })
    #expect(runs[...rename].allSatisfy { $0.isOld })
    #expect(runs[(rename + 1)...].allSatisfy { $0.isNew })
    #expect(runs.contains { $0.isNew })
  }
}

import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `upgrade` (and the other rewrites of old formats) on encrypted files: the key options of
/// every command, the same refusals for a missing or wrong key with the file untouched, and
/// the result encrypted with the same key.
///
/// Realm's encrypted fixtures (`Tests/Fixtures/encrypted`) are all format 24, and `../shared`
/// has no encrypted file of an older format with its key. The old-format cases therefore
/// encrypt a Realm Core 5 file in the test with `realmctl encrypt` (Realm Core 14's page
/// layout): not a file Realm wrote, but it sends the legacy reader through the lazily
/// decrypting byte source, page by page, which is what they check.
@Suite struct UpgradeEncryptedTests {
  typealias Support = CommandTestSupport
  typealias Keys = EncryptionCommandTests

  /// The files of a directory, sorted (no temporary file may be left behind).
  static func names(_ dir: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
  }

  /// Realm's format-24 encrypted fixtures: nothing to upgrade with the right key (exit 0, the
  /// file unchanged, `--output` an identical copy that opens with the key); without a key or
  /// with a wrong one, exactly `open`'s message and exit status, and nothing written.
  @Test func encryptedFixturesNeedTheirKey() throws {
    try Support.withCopy(of: "encrypted/person.realm", as: "p.realm") { file, dir in
      let original = try Support.bytes(file)
      let wrong = ["--key-file", Keys.k1]
      for key in [[], wrong] {
        let open = CommandRun(["open", file] + key)
        let upgrade = CommandRun(["upgrade", file] + key)
        #expect(open.status == 65 && upgrade.status == 65, "\(upgrade.errors)")
        #expect(!upgrade.errors.isEmpty && upgrade.errors == open.errors)
        let out = dir.appendingPathComponent("out.realm").path
        expectEqual(CommandRun(["upgrade", file, "--output", out] + key).status, 65)
        expectEqual(CommandRun(["upgrade", file, "--dry-run"] + key).status, 65)
        expectEqual(CommandRun(["upgrade", file, "--backup", file + ".bak"] + key).status, 65)
        #expect(TestFiles.same(try Support.bytes(file), original))
        try expectEqual(Self.names(dir), ["p.realm", "p.realm.lock"])
      }
      // The right key, from each of the three places.
      let env = ["REALMCTL_KEY": Keys.k2Hex]
      for (key, environment) in [(["--key-file", Keys.k2], [:]), (["--key", Keys.k2Hex], [:]), ([String](), env)] {
        let run = CommandRun(["upgrade", file] + key, environment: environment)
        expectEqual(run.status, 0, "\(run.errors)")
        expectEqual(run.text, "\(file) is already at file format 24, the current format: nothing to upgrade\n")
      }
      #expect(TestFiles.same(try Support.bytes(file), original))
      let out = dir.appendingPathComponent("copy.realm").path
      expectEqual(CommandRun(["upgrade", file, "--output", out, "--key-file", Keys.k2]).status, 0)
      #expect(TestFiles.same(try Support.bytes(out), original))
      Keys.expectReadsAs(
        out, key: ["--key-file", Keys.k2], schema: "person-rename-age/schema.json", dump: "person-rename-age/dump.jsonl")
      // A key for a plain legacy file: open's refusal, the file untouched.
      let plain = try Support.copy("legacy-core5/person-v1/original.realm", to: dir, as: "plain.realm")
      let plainBytes = try Support.bytes(plain)
      let refused = CommandRun(["upgrade", plain, "--key-file", Keys.k2])
      #expect(refused.status == 65 && refused.errors.contains("is not encrypted, but an encryption key was given"))
      expectEqual(refused.errors, CommandRun(["open", plain, "--key-file", Keys.k2]).errors)
      #expect(TestFiles.same(try Support.bytes(plain), plainBytes))
    }
  }

  /// Encrypts a copy of a Realm Core 5 fixture (format 9) with K1; returns its path.
  static func encryptedLegacy(_ name: String, in dir: URL, as fileName: String) throws -> String {
    let plain = try Support.copy("legacy-core5/\(name)/original.realm", to: dir, as: fileName + ".plain")
    let file = dir.appendingPathComponent(fileName).path
    let run = CommandRun(["encrypt", plain, "--output", file, "--key-file", Keys.k1])
    expectEqual(run.status, 0, "\(run.errors)")
    try FileManager.default.removeItem(atPath: plain)
    return file
  }

  /// Decrypts `file` with K1 into `dir` and checks the plaintext against Realm's answers for
  /// the legacy fixture `name`: format 24, clean, Realm's schema and dump.
  static func expectUpgradedAsRealm(_ file: String, _ name: String, in dir: URL) throws {
    expectEqual(CommandRun(["open", file]).status, 65, "the upgraded file must stay encrypted")
    expectEqual(CommandRun(["open", file, "--check", "--key-file", Keys.k1]).status, 0)
    let plain = dir.appendingPathComponent("check.realm").path
    try? FileManager.default.removeItem(atPath: plain)
    expectEqual(CommandRun(["decrypt", file, "--output", plain, "--key-file", Keys.k1]).status, 0)
    expectEqual(RealmAnswerCheck.headerFormat(plain), 24)
    #expect(try Support.problems(plain).isEmpty)
    let fixture = Fixtures.url("legacy-core5/\(name)")
    let problems = RealmAnswerCheck.problems(
      realm: plain, schema: fixture.appendingPathComponent("schema.json"), dump: fixture.appendingPathComponent("dump.jsonl"))
    #expect(problems.isEmpty, "\(name): \(problems.prefix(3))")
    try FileManager.default.removeItem(atPath: plain)
  }

  /// A format-9 file read through the decrypting byte source reads as Realm's answer, and
  /// `upgrade` with its key (dry run, `--output`, in place with `--backup`) writes format 24
  /// encrypted with the same key, reporting the sizes on disk.
  @Test(arguments: LegacyReadingTests.core5Cases)
  func encryptedLegacyFileUpgradesEncrypted(_ name: String) throws {
    try Support.inScratchDirectory { dir in
      let file = try Self.encryptedLegacy(name, in: dir, as: "a.realm")
      let original = try Support.bytes(file)
      let k1 = ["--key-file", Keys.k1]
      let fixture = Fixtures.url("legacy-core5/\(name)")
      let read = RealmAnswerCheck.problems(
        realm: file, schema: fixture.appendingPathComponent("schema.json"), dump: fixture.appendingPathComponent("dump.jsonl"),
        key: k1, format: 9)
      #expect(read.isEmpty, "\(name): \(read.prefix(3))")
      expectEqual(CommandRun(["open", file, "--check"] + k1).status, 0)

      let dry = CommandRun(["upgrade", file, "--dry-run"] + k1)
      expectEqual(dry.status, 0, "\(dry.errors)")
      #expect(TestFiles.same(try Support.bytes(file), original))

      let out = dir.appendingPathComponent("new.realm").path
      let run = CommandRun(["upgrade", file, "--output", out] + k1)
      expectEqual(run.status, 0, "\(run.errors)")
      let size = try Support.bytes(out).count
      expectEqual(size % 4096, 0)
      #expect(run.text.hasPrefix("Upgraded \(file) to \(out): file format 9 -> 24, "), "\(run.text)")
      #expect(run.text.contains(", \(original.count) -> \(size) bytes in "), "\(run.text)")
      // The dry run counts the same file.
      #expect(dry.text.hasSuffix(", \(original.count) -> \(size) bytes\n"), "\(dry.text)")
      #expect(TestFiles.same(try Support.bytes(file), original))
      try Self.expectUpgradedAsRealm(out, name, in: dir)

      let backup = dir.appendingPathComponent("a.realm.bak").path
      let inPlace = CommandRun(["upgrade", file, "--backup", backup], environment: ["REALMCTL_KEY": Keys.k1Hex])
      expectEqual(inPlace.status, 0, "\(inPlace.errors)")
      #expect(inPlace.text.hasPrefix("Upgraded \(file): file format 9 -> 24, "), "\(inPlace.text)")
      #expect(TestFiles.same(try Support.bytes(backup), original))
      try Self.expectUpgradedAsRealm(file, name, in: dir)
      try expectEqual(Self.names(dir), ["a.realm", "a.realm.bak", "a.realm.lock", "new.realm"])
    }
  }

  /// A wrong or missing key on an encrypted old-format file: `open`'s message and status, and
  /// neither `upgrade` nor the other rewrites touch it.
  @Test func encryptedLegacyFileWithoutItsKeyIsUntouched() throws {
    try Support.inScratchDirectory { dir in
      let file = try Self.encryptedLegacy("person-v1", in: dir, as: "a.realm")
      let original = try Support.bytes(file)
      let plan = try Support.write(LegacyWriteCommandTests.plan, to: dir, as: "plan.json")
      for key in [[], ["--key-file", Keys.k2]] {
        let open = CommandRun(["open", file] + key)
        expectEqual(open.status, 65)
        for words in [["upgrade", file], ["compact", file], ["rename-property", file, "Person", "age", "years"],
          ["migrate", "--plan", plan, file]]
        {
          let run = CommandRun(words + key)
          expectEqual(run.status, 65, "\(words + key): \(run.errors)")
          expectEqual(run.errors, open.errors, "\(words + key): \(run.errors)")
        }
        #expect(TestFiles.same(try Support.bytes(file), original))
      }
      try expectEqual(Self.names(dir), ["a.realm", "a.realm.lock", "plan.json"])
    }
  }

  /// `compact`, `rename-property` and `migrate` of an encrypted format-9 file write format 24,
  /// say so, and keep the encryption.
  @Test func otherRewritesOfAnEncryptedLegacyFileKeepTheKey() throws {
    try Support.inScratchDirectory { dir in
      let k1 = ["--key-file", Keys.k1]
      let compacted = try Self.encryptedLegacy("person-v1", in: dir, as: "c.realm")
      let before = try Support.bytes(compacted).count
      let compact = CommandRun(["compact", compacted] + k1)
      expectEqual(compact.status, 0, "\(compact.errors)")
      expectEqual(compact.text, "Compacted \(compacted): \(before) -> \(try Support.bytes(compacted).count) bytes (file format 9 -> 24)\n")
      try Self.expectUpgradedAsRealm(compacted, "person-v1", in: dir)

      let renamed = try Self.encryptedLegacy("person-v1", in: dir, as: "r.realm")
      let rename = CommandRun(["rename-property", renamed, "Person", "age", "years"] + k1)
      expectEqual(rename.status, 0, "\(rename.errors)")
      expectEqual(rename.text, "Renamed 'Person.age' to 'Person.years' in \(renamed) (schema version 1 -> 2, file format 9 -> 24)\n")
      expectEqual(CommandRun(["open", renamed]).status, 65)
      expectEqual(CommandRun(["open", renamed, "--check"] + k1).status, 0)
      #expect(CommandRun(["dump", renamed, "--limit", "1"] + k1).text.contains("\"years\":20"))

      let migrated = try Self.encryptedLegacy("person-v1", in: dir, as: "m.realm")
      let plan = try Support.write(LegacyWriteCommandTests.plan, to: dir, as: "plan.json")
      let migrate = CommandRun(["migrate", "--plan", plan, migrated] + k1)
      expectEqual(migrate.status, 0, "\(migrate.errors)")
      #expect(migrate.text.hasPrefix("\(migrated): schema version 1 -> 2, file format 9 -> 24, rewritten in "), "\(migrate.text)")
      expectEqual(CommandRun(["open", migrated]).status, 65)
      expectEqual(CommandRun(["open", migrated, "--check"] + k1).status, 0)
      #expect(CommandRun(["dump", migrated, "--limit", "1"] + k1).text.contains("\"fullName\":\"Ada Lovelace\""))
    }
  }
}

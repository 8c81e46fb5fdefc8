import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

/// Issue 8 through the commands: every encrypted fixture read with its key as Realm answers,
/// every command that writes keeps or writes the encryption, and every error case.
@Suite struct EncryptionCommandTests {
  typealias Support = CommandTestSupport

  static let k1 = fixturePath("encrypted/alltypes.key")
  static let k2 = fixturePath("encrypted/person.key")
  static let k1Hex = String(decoding: try! Fixtures.bytes("encrypted/alltypes.key"), as: UTF8.self)
    .trimmingCharacters(in: .whitespacesAndNewlines)
  static let k2Hex = String(decoding: try! Fixtures.bytes("encrypted/person.key"), as: UTF8.self)
    .trimmingCharacters(in: .whitespacesAndNewlines)

  /// (encrypted file, its key file, Realm's schema and dump)
  static let readCases: [(file: String, key: String, schema: String, dump: String)] = [
    ("encrypted/alltypes.realm", k1, "alltypes/schema.json", "alltypes/dump.jsonl"),
    ("encrypted/person.realm", k2, "person-rename-age/schema.json", "person-rename-age/dump.jsonl"),
    ("encrypted/big.realm", k1, "encrypted/big.schema.json", "encrypted/big.dump.jsonl"),
    ("encrypted/after-migrate/before.realm", k1, "person-add-email/schema.json", "person-add-email/dump.jsonl"),
    ("encrypted/after-migrate/after.realm", k1, "person-add-email/after.schema.json", "person-add-email/after.dump.jsonl"),
  ]

  /// `schema --format json`, `dump` and `open --check` of `path` with `key` match Realm's answers.
  static func expectReadsAs(_ path: String, key: [String], schema: String, dump: String, env: [String: String] = [:]) {
    let s = CommandRun(["schema", path, "--format", "json"] + key, environment: env)
    expectEqual(s.status, 0, "\(s.errors)")
    #expect(DumpComparison.compareSchemaWithFixture(schema, actual: s.output).isEmpty, "schema of \(path)")
    let d = CommandRun(["dump", path, "--format", "jsonl"] + key, environment: env)
    expectEqual(d.status, 0, "\(d.errors)")
    let problems = DumpComparison.compareDumpWithFixture(dump, schema: schema, actual: d.output)
    #expect(problems.isEmpty, "dump of \(path): \(problems.prefix(3))")
    let c = CommandRun(["open", path, "--check"] + key, environment: env)
    expectEqual(c.status, 0, "open --check of \(path): \(c.text)\(c.errors)")
  }

  @Test(arguments: readCases.indices)
  func readsEveryFixtureWithItsKey(_ i: Int) {
    let c = Self.readCases[i]
    Self.expectReadsAs(fixturePath(c.file), key: ["--key-file", c.key], schema: c.schema, dump: c.dump)
    let open = CommandRun(["open", fixturePath(c.file), "--key-file", c.key])
    #expect(open.text.contains("Encrypted:       yes"))
    let json = CommandRun(["open", fixturePath(c.file), "--json", "--key-file", c.key])
    #expect(json.text.contains("\"encrypted\": true"))
  }

  @Test func keyFromEveryPlace() throws {
    try Support.withFile(Array(0..<64), as: "raw.key") { raw, _ in
      let file = fixturePath("encrypted/person.realm")
      let k2 = ["--key-file", Self.k2]
      Self.expectReadsAs(file, key: k2, schema: "person-rename-age/schema.json", dump: "person-rename-age/dump.jsonl")
      Self.expectReadsAs(
        file, key: ["--key", Self.k2Hex], schema: "person-rename-age/schema.json", dump: "person-rename-age/dump.jsonl")
      Self.expectReadsAs(
        file, key: [], schema: "person-rename-age/schema.json", dump: "person-rename-age/dump.jsonl",
        env: ["REALMCTL_KEY": Self.k2Hex])
      // A raw 64-byte key file (K1 is the bytes 0...63).
      expectEqual(CommandRun(["open", fixturePath("encrypted/alltypes.realm"), "--key-file", raw]).status, 0)
      // The option wins over the variable.
      expectEqual(CommandRun(["schema", file, "--key-file", Self.k2], environment: ["REALMCTL_KEY": Self.k1Hex]).status, 0)
    }
  }

  @Test func errorCasesHaveTheirExitCodesAndNeverShowTheKey() throws {
    try Support.inScratchDirectory { dir in
      let encrypted = fixturePath("encrypted/alltypes.realm")
      let plain = fixturePath("alltypes/before.realm")
      let short = try Support.write(String(Self.k1Hex.prefix(100)), to: dir, as: "short.key")
      let notHex = try Support.write("zz" + Self.k1Hex.dropFirst(2), to: dir, as: "nothex.key")
      let cases: [(args: [String], env: [String: String], status: Int32, says: String)] = [
        (["open", encrypted], [:], 65, "is encrypted (it has no readable Realm header): give its key with --key-file or REALMCTL_KEY"),
        (["dump", encrypted, "--key-file", Self.k2], [:], 65,
         "does not match"),
        (["schema", encrypted], ["REALMCTL_KEY": Self.k2Hex], 65,
         "page 0 in file of size 6443008 has never been successfully written to, but a write was begun"),
        (["open", fixturePath("encrypted/after-migrate/after.realm"), "--key-file", Self.k2], [:], 65,
         "failed the HMAC check. Either the encryption key is incorrect or data is corrupted"),
        (["open", plain, "--key-file", Self.k1], [:], 65, "is not encrypted, but an encryption key was given"),
        (["open", encrypted, "--key-file", short], [:], 64, "has 100 hexadecimal digits, 128 are needed"),
        (["open", encrypted, "--key-file", notHex], [:], 64, "is not hexadecimal"),
        (["open", encrypted, "--key", "abc"], [:], 64, "128 are needed"),
        (["open", encrypted], ["REALMCTL_KEY": "12"], 64, "REALMCTL_KEY has 2 hexadecimal digits"),
        (["open", encrypted, "--key", Self.k1Hex, "--key-file", Self.k1], [:], 64, "cannot be used together"),
        (["open", encrypted, "--key-file", dir.appendingPathComponent("missing.key").path], [:], 66, "missing.key"),
        (["decrypt", plain, "--key-file", Self.k1, "--output", dir.appendingPathComponent("x").path], [:], 65, "is not encrypted"),
        (["encrypt", encrypted, "--key-file", Self.k1, "--output", dir.appendingPathComponent("y").path], [:], 65,
         "already encrypted"),
        (["encrypt", plain, "--output", dir.appendingPathComponent("z").path], [:], 64, "Missing the key"),
      ]
      for c in cases {
        let run = CommandRun(c.args, environment: c.env)
        expectEqual(run.status, c.status, "\(c.args): \(run.errors)")
        #expect(run.errors.contains(c.says), "\(c.args): \(run.errors)")
        for secret in [Self.k1Hex, Self.k2Hex, String(Self.k1Hex.prefix(16)), String(Self.k2Hex.prefix(16))] {
          #expect(!run.errors.contains(secret) && !run.text.contains(secret), "\(c.args) shows a key")
        }
      }
      try expectEqual(FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), ["nothex.key", "short.key"])
    }
  }

  /// Realm's own migration of the encrypted `after-migrate/before.realm` is `after.realm`:
  /// ours gives the same answers and the file stays encrypted with the same key.
  @Test func migrateKeepsEncryptionAndMatchesRealmsMigration() throws {
    try Support.inScratchDirectory { dir in
      for inPlace in [true, false] {
        let file = try Support.copy("encrypted/after-migrate/before.realm", to: dir, as: "m\(inPlace).realm")
        var args = ["migrate", "--plan", fixturePath("person-add-email/plan.json"), file, "--key-file", Self.k1]
        if !inPlace {
          // An indexed email has no in-place path: the rewrite (the schema differs from Realm's).
          let plan = try String(contentsOfFile: fixturePath("person-add-email/plan.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"string?\"", with: "{\"type\": \"string\", \"optional\": true, \"indexed\": true}")
          args[2] = try Support.write(plan, to: dir, as: "indexed.json")
        }
        let run = CommandRun(args)
        expectEqual(run.status, 0, "\(run.errors)")
        #expect(run.text.contains(inPlace ? "in place" : "rewritten"), "\(run.text)")
        expectEqual(CommandRun(["open", file]).status, 65, "the migrated file must stay encrypted")
        if inPlace {
          Self.expectReadsAs(
            file, key: ["--key-file", Self.k1], schema: "person-add-email/after.schema.json",
            dump: "person-add-email/after.dump.jsonl")
        } else {
          let d = CommandRun(["dump", file, "--key-file", Self.k1])
          #expect(DumpComparison.compareDumpWithFixture(
            "person-add-email/after.dump.jsonl", schema: "person-add-email/after.schema.json", actual: d.output).isEmpty)
          expectEqual(CommandRun(["open", file, "--check", "--key-file", Self.k1]).status, 0)
        }
      }
    }
  }

  /// rename-property, compact and create on encrypted files; encrypt, re-key and decrypt.
  @Test func everyWritingCommandKeepsOrWritesEncryption() throws {
    try Support.inScratchDirectory { dir in
      let k1 = ["--key-file", Self.k1]
      let file = try Support.copy("encrypted/person.realm", to: dir, as: "p.realm")
      let k2 = ["--key-file", Self.k2]
      let rename = CommandRun(["rename-property", file, "Person", "age", "years"] + k2)
      expectEqual(rename.status, 0, "\(rename.errors)")
      #expect(CommandRun(["schema", file] + k2).text.contains("years"))
      let compact = CommandRun(["compact", file] + k2)
      expectEqual(compact.status, 0, "\(compact.errors)")
      try expectEqual(Support.bytes(file).count % 4096, 0)
      let dump = CommandRun(["dump", file] + k2)
      #expect(dump.status == 0 && dump.text.contains("\"years\":45"))
      expectEqual(CommandRun(["open", file, "--check"] + k2).status, 0)

      // create --key-file: the text fixture back into an encrypted file.
      let created = dir.appendingPathComponent("c.realm").path
      let create = CommandRun([
        "create", created, "--schema", fixturePath("alltypes/schema.json"), "--data", fixturePath("alltypes/dump.jsonl"),
      ] + k1)
      expectEqual(create.status, 0, "\(create.errors)")
      #expect(create.text.hasSuffix("\(try Support.bytes(created).count) bytes, encrypted\n"), "\(create.text)")
      Self.expectReadsAs(created, key: k1, schema: "alltypes/schema.json", dump: "alltypes/dump.jsonl")

      // encrypt a plain file in place and into a new file, change the key, decrypt.
      let plain = try Support.copy("person-rename-age/before.realm", to: dir, as: "plain.realm")
      let original = try Support.bytes(plain)
      let copy = dir.appendingPathComponent("copy.realm").path
      expectEqual(CommandRun(["encrypt", plain, "--output", copy] + k1).status, 0)
      #expect(TestFiles.same(try Support.bytes(plain), original))
      expectEqual(CommandRun(["encrypt", plain] + k1).status, 0)
      try expectEqual(Support.bytes(plain), Support.bytes(copy))
      let rekey = CommandRun(["encrypt", plain, "--new-key-file", Self.k2] + k1)
      #expect(rekey.status == 0 && rekey.text.hasPrefix("Changed the key of"), "\(rekey.errors)")
      expectEqual(CommandRun(["open", plain] + k1).status, 65)
      Self.expectReadsAs(plain, key: k2, schema: "person-rename-age/schema.json", dump: "person-rename-age/dump.jsonl")
      let decrypted = dir.appendingPathComponent("d.realm").path
      expectEqual(CommandRun(["decrypt", plain, "--output", decrypted] + k2).status, 0)
      #expect(TestFiles.same(try Support.bytes(decrypted), original))
      expectEqual(CommandRun(["decrypt", plain] + k2).status, 0)
      #expect(TestFiles.same(try Support.bytes(plain), original))
      // Re-keying through the variables.
      expectEqual(CommandRun(["encrypt", plain], environment: ["REALMCTL_KEY": Self.k1Hex]).status, 0)
      expectEqual(CommandRun(["encrypt", plain], environment: ["REALMCTL_KEY": Self.k1Hex, "REALMCTL_NEW_KEY": Self.k2Hex]).status, 0)
      expectEqual(CommandRun(["open", plain] + k2).status, 0)
    }
  }

  /// `decrypt` of every fixture gives a plain file that reads as Realm's answers.
  @Test(arguments: [0, 1, 3, 4])
  func decryptGivesThePlainRealm(_ i: Int) throws {
    let c = Self.readCases[i]
    try Support.inScratchDirectory { dir in
      let out = dir.appendingPathComponent("plain.realm").path
      let run = CommandRun(["decrypt", fixturePath(c.file), "--output", out, "--key-file", c.key])
      expectEqual(run.status, 0, "\(run.errors)")
      Self.expectReadsAs(out, key: [], schema: c.schema, dump: c.dump)
    }
  }
}

import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `realmctl convert` and `--file-format` (issue 16) at the command line: the reports, the
/// refusals (one line, exit 65, the file byte for byte as it was), the usage errors, and the
/// format every writing command keeps.
@Suite struct ConvertCommandTests {
  typealias Support = CommandTestSupport

  @Test func convertsDownAndUpAndReportsIt() throws {
    try Support.withCopy(of: "person-add-email/before.realm", as: "app.realm") { file, dir throws in
      let dry = Support.run(["convert", file, "--file-format", "23", "--dry-run"])
      #expect(dry.status == 0 && dry.stdout.hasPrefix("\(file): file format 24 -> 23 would be written (dry run: nothing written): 1000 objects in 1 class, "))
      expectEqual(RealmAnswerCheck.headerFormat(file), 24)
      let down = Support.run(["convert", file, "--file-format", "23"])
      #expect(down.status == 0 && down.stdout.hasPrefix("Converted \(file): file format 24 -> 23, 1000 objects in 1 class, "), "\(down.stderr)")
      expectEqual(RealmAnswerCheck.headerFormat(file), 23)
      #expect(try Support.problems(file).isEmpty)
      let again = Support.run(["convert", file, "--file-format", "23"])
      expectEqual(again.stdout, "\(file) is already at file format 23: nothing to convert\n")
      let output = dir.appendingPathComponent("core12.realm").path
      let to22 = Support.run(["convert", file, "--file-format", "22", "--output", output])
      #expect(to22.status == 0 && to22.stdout.hasPrefix("Converted \(file) to \(output): file format 23 -> 22, "))
      #expect(RealmAnswerCheck.headerFormat(output) == 22 && RealmAnswerCheck.headerFormat(file) == 23)
      let up = Support.run(["upgrade", output])
      #expect(up.status == 0 && up.stdout.hasPrefix("Upgraded \(output): file format 22 -> 24, "))
    }
  }

  /// A target that cannot hold the data: one line naming class, property and reason, exit 65,
  /// and the file unchanged.
  @Test func refusalIsOneLineAndLeavesTheFile() throws {
    try Support.withCopy(of: "alltypes/before.realm", as: "all.realm") { file, _ in
      let before = try Support.bytes(file)
      for format in ["23", "22", "20"] {
        let run = Support.run(["convert", file, "--file-format", format])
        expectEqual(run.status, 65)
        #expect(
          run.stderr
            == "Error: '\(file)' cannot be converted to file format \(format): `AllTypes.mixed_dictionary` holds a nested list inside a Mixed (format 24 only)\n")
        #expect(TestFiles.same(try Support.bytes(file), before))
      }
    }
  }

  @Test func formatsThatCannotBeWrittenAreUsageErrors() throws {
    try Support.withCopy(of: "person-add-email/before.realm", as: "app.realm") { file, _ in
      let old = Support.run(["convert", file, "--file-format", "11"])
      expectEqual(old.status, 64)
      #expect(old.stderr.hasPrefix(
        "Error: invalid value '11' for '--file-format <n>': formats below 20 (Realm Core 6 and older) cannot be written; the oldest writable format is 20 (choose from 20, 22, 23, 24)\n"))
      let beta = Support.run(["compact", file, "--file-format", "21"])
      #expect(beta.status == 64 && beta.stderr.contains("format 21 existed only in Realm Core 11's betas"))
      let missing = Support.run(["convert", file])
      expectEqual(missing.status, 64)
      expectEqual(RealmAnswerCheck.headerFormat(file), 24)
    }
  }

  /// Every writing command keeps format 23 and says so; `create --file-format` writes it.
  @Test func writingCommandsKeepTheFormat() throws {
    try Support.inScratchDirectory { dir in
      let file = dir.appendingPathComponent("app.realm").path
      let created = Support.run([
        "create", file, "--schema", Fixtures.url("person-add-email/schema.json").path,
        "--data", Fixtures.url("person-add-email/dump.jsonl").path, "--file-format", "23",
      ])
      #expect(created.status == 0 && created.stdout.hasSuffix(", file format 23\n"), "\(created.stdout) \(created.stderr)")
      expectEqual(RealmAnswerCheck.headerFormat(file), 23)

      let migrated = Support.run(["migrate", "--plan", Fixtures.url("person-add-email/plan.json").path, file])
      #expect(migrated.stdout.hasPrefix("\(file): schema version 1 -> 2, file format 23 (kept), changed in place, column-wise in "))
      let json = CommandRun(["migrate", "--plan", Fixtures.url("person-add-email/plan.json").path, file, "--json", "--dry-run"])
      #expect(json.text.contains("\"fromFileFormat\": 23") && json.text.contains("\"fileFormatKept\": true"), "\(json.text)")

      let renamed = Support.run(["rename-property", file, "Person", "email", "mail"])
      #expect(renamed.status == 0 && renamed.stdout.contains("file format 23 (kept)"), "\(renamed.stdout)")
      let compacted = Support.run(["compact", file])
      #expect(compacted.stdout.hasSuffix(" bytes, file format 23 (kept)\n"), "\(compacted.stdout)")
      let keyFile = try Support.write(String(repeating: "ab", count: 64), to: dir, as: "k.key")
      let encrypted = Support.run(["encrypt", file, "--key-file", keyFile])
      #expect(encrypted.stdout.hasSuffix(", file format 23 (kept)\n"), "\(encrypted.stdout) \(encrypted.stderr)")
      let decrypted = Support.run(["decrypt", file, "--key-file", keyFile, "--file-format", "22"])
      #expect(decrypted.stdout.hasSuffix(" (file format 23 -> 22)\n"), "\(decrypted.stdout) \(decrypted.stderr)")
      expectEqual(RealmAnswerCheck.headerFormat(file), 22)
      #expect(try Support.problems(file).isEmpty)
    }
  }
}

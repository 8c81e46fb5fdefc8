import Foundation
import RealmTestSupport
import Testing

/// `dump --format sql` and `schema --format <language>` read encrypted files with the key
/// options like every other reading command (issue 11 on issue 8's files): the output is that
/// of the plaintext file the encrypted fixture was made from (`encrypted/README.md`).
@Suite struct EncryptedExportTests {
  static let encrypted = fixturePath("encrypted/alltypes.realm")
  static let plain = fixturePath("alltypes/before.realm")
  static let keyFile = fixturePath("encrypted/alltypes.key")
  static let keyHex = String(decoding: try! Fixtures.bytes("encrypted/alltypes.key"), as: UTF8.self)
    .trimmingCharacters(in: .whitespacesAndNewlines)

  @Test func sqlScriptIsThePlaintextFilesScript() {
    let expected = CommandRun(["dump", Self.plain, "--format", "sql"])
    expectEqual(expected.status, 0)
    for (arguments, environment) in [
      (["--key-file", Self.keyFile], [:]), (["--key", Self.keyHex], [:]), ([], ["REALMCTL_KEY": Self.keyHex]),
    ] {
      let run = CommandRun(["dump", Self.encrypted, "--format", "sql"] + arguments, environment: environment)
      expectEqual(run.status, 0, "\(run.errors)")
      expectEqual(run.output, expected.output, "\(arguments) \(environment.keys)")
    }
    let oneClass = CommandRun(["dump", Self.encrypted, "--format", "sql", "--class", "Target", "--key-file", Self.keyFile])
    expectEqual(oneClass.output, CommandRun(["dump", Self.plain, "--format", "sql", "--class", "Target"]).output)
  }

  @Test(arguments: ["swift", "kotlin", "java", "javascript", "typescript", "dart", "csharp"])
  func modelCodeIsThePlaintextFilesModelCode(_ language: String) {
    let run = CommandRun(["schema", Self.encrypted, "--format", language, "--key-file", Self.keyFile])
    expectEqual(run.status, 0, "\(run.errors)")
    #expect(!run.output.isEmpty)
    expectEqual(run.output, CommandRun(["schema", Self.plain, "--format", language]).output)
  }

  @Test func withoutTheKeyTheyRefuseAndPrintNothing() {
    for command in [["dump", Self.encrypted, "--format", "sql"], ["schema", Self.encrypted, "--format", "kotlin"]] {
      let run = CommandRun(command)
      expectEqual(run.status, 65)
      #expect(run.output.isEmpty)
      #expect(run.errors.contains("is encrypted"), "\(run.errors)")
      #expect(run.errors.contains("--key-file"))
    }
  }
}

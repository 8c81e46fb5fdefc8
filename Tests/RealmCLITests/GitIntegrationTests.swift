import Foundation
import RealmTestSupport
import Testing

/// The git setup of docs/git-and-ci.md in a temporary repository: `git diff` of a changed
/// `.realm` fixture shows the changed objects (textconv `realmctl dump --for-diff`), and the
/// example pre-commit hook refuses a fixture the app's schema no longer opens.
@Suite(.enabled(if: CompletionTests.tool("git") != nil, "git is not installed"))
struct GitIntegrationTests {
  typealias T = CommandTestSupport

  /// Runs git in `repo` with a configuration of its own (no user or system settings).
  static func git(_ arguments: [String], in repo: URL, environment: [String: String] = [:]) throws -> (stdout: String, stderr: String, status: Int32) {
    let identity = [
      "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
      "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    ]
    return try CompletionTests.run(
      try #require(CompletionTests.tool("git")), arguments, in: repo, environment: identity.merging(environment) { $1 })
  }

  /// A repository with the documented `.gitattributes` and textconv setting.
  static func repository(_ dir: URL) throws -> URL {
    let repo = dir.appendingPathComponent("repo")
    try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
    let realmctl = try #require(EndToEndTests.executable, "build realmctl first (swift build)").path
    for command in [
      ["init", "-q"], ["config", "diff.realm.textconv", "\(realmctl) dump --for-diff"],
      ["config", "core.hooksPath", ".git/hooks"],
    ] {
      let result = try git(command, in: repo)
      try #require(result.status == 0, "git \(command): \(result.stderr)")
    }
    try T.write("*.realm diff=realm\n", to: repo, as: ".gitattributes")
    return repo
  }

  @Test func gitDiffShowsTheChangedObjects() throws {
    try T.inScratchDirectory { dir in
      let repo = try Self.repository(dir)
      let (old, new) = try DiffCommandTests.craftedPair(in: dir)
      let fixture = repo.appendingPathComponent("fixture.realm").path
      try T.write(try T.bytes(old), to: fixture)
      try expectEqual(Self.git(["add", "."], in: repo).status, 0)
      let commit = try Self.git(["commit", "-q", "-m", "fixture"], in: repo)
      try #require(commit.status == 0, "\(commit.stderr)")
      try T.write(try T.bytes(new), to: fixture)
      let diff = try Self.git(["diff"], in: repo)
      expectEqual(diff.status, 0, "\(diff.stderr)")
      let changed = diff.stdout.split(separator: "\n").filter { $0.hasPrefix("+{") || $0.hasPrefix("-{") }.map(String.init)
      // Dogs sorted by primary key: rex's age changed, max added; fido moved to another key in
      // the file but its line is the same, as is Bob's link to it.
      #expect(changed.contains(#"-{"$class":"Dog","name":"rex","age":3}"#), "\(diff.stdout)")
      #expect(changed.contains(#"+{"$class":"Dog","name":"rex","age":4}"#))
      #expect(changed.contains(#"+{"$class":"Dog","name":"max","age":1}"#))
      #expect(!changed.contains { $0.contains(#""name":"fido""#) || $0.contains(#""Bob""#) }, "\(changed)")
      // Eve's link keeps its key but names another dog.
      #expect(changed.contains(#"+{"$class":"Person","$key":4,"name":"Eve","dog":{"$ref":"Dog","$pk":"spot"},"address":null}"#))
      expectEqual(changed.count, 9, "\(changed)")
      // git log -p shows the same through the same setting.
      _ = try Self.git(["commit", "-q", "-a", "-m", "changed"], in: repo)
      let log = try Self.git(["log", "-p", "-1"], in: repo)
      #expect(log.stdout.contains(#"+{"$class":"Dog","name":"max","age":1}"#))
    }
  }

  @Test func preCommitHookRefusesAFixtureTheAppNoLongerOpens() throws {
    try T.inScratchDirectory { dir in
      let repo = try Self.repository(dir)
      let realmctl = try #require(EndToEndTests.executable).path
      let hooks = repo.appendingPathComponent(".git/hooks")
      try FileManager.default.createDirectory(at: hooks, withIntermediateDirectories: true)
      let hook = hooks.appendingPathComponent("pre-commit").path
      try T.write(try T.bytes(Fixtures.root.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples/git/pre-commit").path), to: hook)
      expectEqual(chmod(hook, 0o755), 0)
      let fixture = repo.appendingPathComponent("person.realm").path
      try T.write(try Fixtures.bytes("open-errors/before.realm"), to: fixture)
      let env = ["REALMCTL": realmctl]
      // The app's schema is the file's: the commit goes through.
      try T.write(try Fixtures.bytes("open-errors/same-version-same-schema.plan.json"), to: repo.appendingPathComponent("app-schema.json").path)
      try expectEqual(Self.git(["add", "."], in: repo).status, 0)
      let ok = try Self.git(["commit", "-q", "-m", "fixture"], in: repo, environment: env)
      expectEqual(ok.status, 0, "\(ok.stderr)")
      // The app changed a type without a new version: a fixture added now is refused, with
      // Realm's words.
      try T.write(try Fixtures.bytes("open-errors/same-version-type-changed.plan.json"), to: repo.appendingPathComponent("app-schema.json").path)
      try T.copy("open-errors/before.realm", to: repo, as: "person2.realm")
      try expectEqual(Self.git(["add", "."], in: repo).status, 0)
      let refused = try Self.git(["commit", "-q", "-m", "new fixture"], in: repo, environment: env)
      #expect(refused.status != 0)
      #expect(refused.stderr.contains("pre-commit: person2.realm does not open with app-schema.json:"), "\(refused.stderr)")
      #expect(refused.stderr.contains("Migration is required due to the following errors:\n- Property 'Person.age' has been changed from 'int' to 'string'."))
      try expectEqual(Self.git(["log", "--oneline"], in: repo).stdout.split(separator: "\n").count, 1)
    }
  }
}

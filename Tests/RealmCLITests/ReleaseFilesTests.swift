import Foundation
import RealmTestSupport
import Testing

@testable import RealmCLI

/// The files that release realmctl: the GitHub workflows and action.yml against GitHub's own
/// schemas (check-jsonschema, which carries them and works offline), the Homebrew formula's
/// Ruby syntax and tag, the release scripts' shell syntax, and the project files the README
/// links. Nothing here can run GitHub Actions or Homebrew: these are the checks that can run.
@Suite struct ReleaseFilesTests {
  static let root = Snapshot.packageRoot
  static func tool(_ name: String) -> String? { CompletionTests.tool(name) }
  static func text(_ relative: String) throws -> String {
    try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
  }

  @Test(
    .enabled(if: tool("check-jsonschema") != nil, "check-jsonschema is not installed (pip install check-jsonschema; .ci/run does)"),
    arguments: [
      ("vendor.github-workflows", ".github/workflows/ci.yml"),
      ("vendor.github-workflows", ".github/workflows/release.yml"),
      ("vendor.github-actions", "action.yml"),
      ("vendor.github-workflows", "Examples/git/realm-fixtures.yml"),
    ])
  func theWorkflowsAndTheActionMatchGitHubsSchemas(schema: String, file: String) throws {
    let checker = try #require(Self.tool("check-jsonschema"))
    let result = try CompletionTests.run(
      checker, ["--builtin-schema", schema, Self.root.appendingPathComponent(file).path])
    expectEqual(result.status, 0, "\(file): \(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("ok -- validation done"))
  }

  @Test(.enabled(if: tool("check-jsonschema") != nil, "check-jsonschema is not installed"))
  func theSchemaCheckRejectsABrokenWorkflow() throws {
    let checker = try #require(Self.tool("check-jsonschema"))
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // `runs-on` misspelt and a step with neither `run` nor `uses`.
    let broken = try CompletionTests.write(
      "name: x\non: push\njobs:\n  a:\n    runs_on: ubuntu-24.04\n    steps:\n      - name: nothing\n",
      named: "broken.yml", in: dir)
    let result = try CompletionTests.run(checker, ["--builtin-schema", "vendor.github-workflows", broken])
    #expect(result.status != 0)
  }

  /// The action runs its logic from the script the tests run (SetupActionTests), with the
  /// inputs the issue names and their defaults.
  @Test func theActionRunsTheTestedScript() throws {
    let action = try Self.text("action.yml")
    #expect(action.contains("using: composite"))
    #expect(action.contains("run: bash \"$GITHUB_ACTION_PATH/scripts/setup-realmctl.sh\""))
    #expect(action.contains("  version:\n    description:"))
    #expect(action.contains("    default: latest\n"))
    #expect(action.contains("  checksum-verify:\n"))
    #expect(action.contains("    default: \"true\"\n"))
  }

  @Test(.enabled(if: tool("ruby") != nil, "ruby is not installed"))
  func theFormulaIsValidRuby() throws {
    let ruby = try #require(Self.tool("ruby"))
    let result = try CompletionTests.run(ruby, ["-c", Self.root.appendingPathComponent("Formula/realmctl.rb").path])
    expectEqual(result.status, 0, "\(result.stderr)")
    expectEqual(result.stdout, "Syntax OK\n")
  }

  /// The formula builds the tag of this version (a release bumps both), and its test writes a
  /// file with `create` and opens it.
  @Test func theFormulaBuildsThisVersionsTag() throws {
    let formula = try Self.text("Formula/realmctl.rb")
    #expect(formula.contains("tag: \"v\(ReleaseVersion.number)\""))
    #expect(formula.contains("system \"swift\", \"build\""))
    #expect(formula.contains("realmctl --version"))
    #expect(formula.contains("\"create\""))
    #expect(formula.contains("realmctl open"))
  }

  @Test(.enabled(if: tool("bash") != nil, "bash is not installed"))
  func theReleaseScriptsParse() throws {
    let bash = try #require(Self.tool("bash"))
    for script in ["dist.sh", "check-dist.sh", "setup-realmctl.sh", "build-stamp.sh"] {
      let result = try CompletionTests.run(bash, ["-n", Self.root.appendingPathComponent("scripts/\(script)").path])
      expectEqual(result.status, 0, "\(script): \(result.stderr)")
    }
  }

  /// The changelog has an entry for this version (under an "Unreleased" section) and the README
  /// links the project files, which exist.
  @Test func theChangelogAndTheProjectFiles() throws {
    let changelog = try Self.text("CHANGELOG.md")
    #expect(changelog.contains("\n## [Unreleased]\n"))
    #expect(changelog.contains("\n## [\(ReleaseVersion.number)] - "))
    let readme = try Self.text("README.md")
    for file in ["LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "SECURITY.md"] {
      #expect(readme.contains("](\(file))"), "the README does not link \(file)")
      #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path))
    }
    #expect(try Self.text("LICENSE").contains("Apache License\n                           Version 2.0, January 2004"))
  }
}

import Foundation
import RealmTestSupport
import Testing

@testable import RealmCLI

/// The GitHub Action's install script (scripts/setup-realmctl.sh, which action.yml runs), run
/// as a runner would, against a local release: an archive of the debug binary packed by
/// `scripts/dist.sh package` exactly as `make dist` packs the release binary, served through
/// file:// URLs, with a temporary GITHUB_PATH, GITHUB_OUTPUT and RUNNER_TEMP.
@Suite(.enabled(if: SetupActionPrerequisites.missing == nil, SetupActionPrerequisites.reason))
struct SetupActionTests {
  static func tool(_ name: String) -> String? { CompletionTests.tool(name) }

  /// The runner's names for this machine.
  static var runner: (os: String, arch: String, target: String) {
    #if os(macOS)
      return ("macOS", "ARM64", "macos-universal")
    #elseif arch(arm64)
      return ("Linux", "ARM64", "linux-arm64")
    #else
      return ("Linux", "X64", "linux-x86_64")
    #endif
  }

  static var archiveName: String { "realmctl-\(ReleaseVersion.number)-\(runner.target).tar.gz" }

  /// The archive of the debug binary and its .sha256, packed once for the suite (a directory
  /// left in the temporary folder), or the reason it could not be.
  static let packed: Result<URL, Failure> = {
    do {
      let releases = try Fixtures.temporaryDirectory().appendingPathComponent("releases")
      guard let binary = EndToEndTests.executable, let bash = tool("bash") else { return .failure(Failure("no realmctl or bash")) }
      let parts = runner.target.split(separator: "-").map(String.init)
      let result = try CompletionTests.run(
        bash,
        [Snapshot.packageRoot.appendingPathComponent("scripts/dist.sh").path, "package", binary.path, releases.path],
        environment: ["VERSION": ReleaseVersion.number, "OS": parts[0], "ARCH": parts[1]])
      guard result.status == 0 else { return .failure(Failure("dist.sh package: \(result.stderr)")) }
      return .success(releases)
    } catch {
      return .failure(Failure("\(error)"))
    }
  }()

  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// A release directory of this test's own (a copy of ``packed``): the archive and its .sha256.
  static func release(in dir: URL) throws -> URL {
    let releases = dir.appendingPathComponent("releases")
    try FileManager.default.createDirectory(at: releases, withIntermediateDirectories: true)
    let packed = try Self.packed.get()
    for name in [archiveName, archiveName + ".sha256"] {
      try FileManager.default.copyItem(at: packed.appendingPathComponent(name), to: releases.appendingPathComponent(name))
    }
    return releases
  }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var path: [String]
    var outputs: [String]
  }

  /// Runs the action's script with `inputs` as the runner would.
  static func install(_ inputs: [String: String], in dir: URL) throws -> Run {
    let runnerTemp = dir.appendingPathComponent("runner-temp")
    try FileManager.default.createDirectory(at: runnerTemp, withIntermediateDirectories: true)
    let githubPath = dir.appendingPathComponent("github_path")
    let githubOutput = dir.appendingPathComponent("github_output")
    for file in [githubPath, githubOutput] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
    var environment = [
      "RUNNER_OS": runner.os, "RUNNER_ARCH": runner.arch, "RUNNER_TEMP": runnerTemp.path,
      "GITHUB_PATH": githubPath.path, "GITHUB_OUTPUT": githubOutput.path,
      "REALMCTL_REPOSITORY": "realmctl/realmctl",
    ]
    environment.merge(inputs) { $1 }
    let result = try CompletionTests.run(
      try #require(tool("bash")), [Snapshot.packageRoot.appendingPathComponent("scripts/setup-realmctl.sh").path],
      in: dir, environment: environment)
    func lines(_ url: URL) -> [String] {
      ((try? String(contentsOf: url, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
    return Run(
      status: result.status, stdout: result.stdout, stderr: result.stderr, path: lines(githubPath),
      outputs: lines(githubOutput))
  }

  /// The directory added to GITHUB_PATH holds a realmctl of this version that runs.
  static func expectInstalled(_ run: Run) throws {
    expectEqual(run.status, 0, "\(run.stdout)\(run.stderr)")
    expectEqual(run.path.count, 1)
    let directory = try #require(run.path.first)
    expectEqual(run.outputs, ["version=\(ReleaseVersion.number)", "path=\(directory)"])
    let version = try CompletionTests.run(directory + "/realmctl", ["--version"])
    expectEqual(version.status, 0)
    #expect(version.stdout.hasPrefix(ReleaseVersion.number + " ("))
    for file in ["realmctl.1", "completions/realmctl.bash", "LICENSE"] {
      #expect(FileManager.default.fileExists(atPath: directory + "/" + file), "\(file) is missing")
    }
  }

  @Test func installsAVersionWithItsChecksumVerified() throws {
    try CommandTestSupport.inScratchDirectory { dir in
      let releases = try Self.release(in: dir)
      for version in [ReleaseVersion.number, "v" + ReleaseVersion.number] {
        let run = try Self.install(["REALMCTL_VERSION": version, "REALMCTL_DOWNLOAD_URL": "file://" + releases.path], in: dir)
        try Self.expectInstalled(run)
        #expect(run.stdout.contains("sha256 verified"))
      }
    }
  }

  @Test func latestIsTheTagOfTheLatestRelease() throws {
    try CommandTestSupport.inScratchDirectory { dir in
      let releases = try Self.release(in: dir)
      // The shape of GitHub's "latest release" answer (abridged).
      let latest = try CompletionTests.write(
        "{\n  \"url\": \"https://api.github.com/repos/realmctl/realmctl/releases/1\",\n  \"tag_name\": \"v\(ReleaseVersion.number)\",\n  \"name\": \"realmctl\"\n}\n",
        named: "latest.json", in: dir)
      let run = try Self.install(
        ["REALMCTL_LATEST_URL": "file://" + latest, "REALMCTL_DOWNLOAD_URL": "file://" + releases.path], in: dir)
      try Self.expectInstalled(run)
    }
  }

  @Test func aChecksumMismatchInstallsNothing() throws {
    try CommandTestSupport.inScratchDirectory { dir in
      let releases = try Self.release(in: dir)
      let sum = releases.appendingPathComponent(Self.archiveName + ".sha256")
      try (String(repeating: "0", count: 64) + "  " + Self.archiveName + "\n").write(to: sum, atomically: true, encoding: .utf8)
      let inputs = ["REALMCTL_VERSION": ReleaseVersion.number, "REALMCTL_DOWNLOAD_URL": "file://" + releases.path]
      let refused = try Self.install(inputs, in: dir)
      expectEqual(refused.status, 1)
      #expect(refused.stderr.contains("checksum mismatch for \(Self.archiveName): expected \(String(repeating: "0", count: 64))"))
      #expect(refused.path.isEmpty)
      // checksum-verify: false installs it anyway, with a warning.
      var unchecked = inputs
      unchecked["REALMCTL_CHECKSUM_VERIFY"] = "false"
      let run = try Self.install(unchecked, in: dir)
      try Self.expectInstalled(run)
      #expect(run.stdout.contains("::warning title=setup-realmctl::the checksum of \(Self.archiveName) was not verified"))
    }
  }

  @Test func badInputsAreRefusedWithAMessage() throws {
    try CommandTestSupport.inScratchDirectory { dir in
      let releases = try Self.release(in: dir)
      let url = "file://" + releases.path
      let cases: [([String: String], String)] = [
        (["REALMCTL_VERSION": "9.9.9", "REALMCTL_DOWNLOAD_URL": url], "cannot download \(url)/realmctl-9.9.9-"),
        (["REALMCTL_VERSION": "one", "REALMCTL_DOWNLOAD_URL": url], "'one' is not a realmctl version"),
        (["REALMCTL_VERSION": ReleaseVersion.number, "REALMCTL_CHECKSUM_VERIFY": "yes"], "checksum-verify must be true or false"),
        (["REALMCTL_VERSION": ReleaseVersion.number, "RUNNER_OS": "Windows"], "no realmctl archive for Windows"),
      ]
      for (inputs, message) in cases {
        let run = try Self.install(inputs, in: dir)
        expectEqual(run.status, 1, "\(inputs)")
        #expect(run.stderr.contains("::error title=setup-realmctl::"), "\(inputs): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(inputs): \(run.stderr)")
        #expect(run.path.isEmpty)
      }
    }
  }
}

/// What is missing to run ``SetupActionTests``, if anything.
enum SetupActionPrerequisites {
  static let missing: String? = {
    for name in ["bash", "curl", "tar", "gzip"] where CompletionTests.tool(name) == nil { return "\(name) is not installed" }
    if CompletionTests.tool("sha256sum") == nil && CompletionTests.tool("shasum") == nil {
      return "neither sha256sum nor shasum is installed"
    }
    if EndToEndTests.executable == nil { return "the realmctl binary is not built" }
    return nil
  }()
  static let reason = Comment(rawValue: missing ?? "")
}

import Foundation
import RealmTestSupport
import Testing

@testable import RealmCLI

/// The release archive of this machine as `make dist` wrote it (dist/realmctl-VERSION-OS-ARCH.tar.gz),
/// checked as a user gets it by scripts/check-dist.sh: the checksum verifies, it unpacks into
/// an empty directory, `env -i ./realmctl --version` prints this version and a commit, `open`
/// of a fixture works, the binary is static (Linux) or universal (macOS), the man page renders
/// and the completions load.
///
/// Building the archive is a static release build (several minutes on 2 cores), too slow for
/// every `make test`: `.ci/run` and the CI workflow run `make dist-check` first, and this test
/// checks that archive again inside `make test`; without one it is skipped, saying so.
@Suite struct DistArchiveTests {
  static var target: String {
    #if os(macOS)
      return "macos-universal"
    #elseif arch(arm64)
      return "linux-arm64"
    #else
      return "linux-x86_64"
    #endif
  }

  static let archive = Snapshot.packageRoot.appendingPathComponent(
    "dist/realmctl-\(ReleaseVersion.number)-\(target).tar.gz")

  static let isPresent = FileManager.default.fileExists(atPath: archive.path)

  @Test(.enabled(if: isPresent, "no release archive in dist/ (make dist builds one: a release build of several minutes; .ci/run does it before make test)"))
  func theArchiveWorksFromAnEmptyDirectoryWithAnEmptyEnvironment() throws {
    let bash = try #require(CompletionTests.tool("bash"))
    let result = try CompletionTests.run(
      bash, [Snapshot.packageRoot.appendingPathComponent("scripts/check-dist.sh").path, Self.archive.path])
    expectEqual(result.status, 0, "\(result.stdout)\(result.stderr)")
    let lines = result.stdout.split(separator: "\n")
    #expect(!lines.contains { $0.hasPrefix("FAILED") }, "\(result.stdout)")
    for check in [
      "ok: the checksum in", "ok: the archive holds", "ok: env -i ./realmctl --version: \(ReleaseVersion.number) (commit ",
      "ok: the binary's version is the archive's", "ok: env -i ./realmctl open", "ok: bash loads",
    ] {
      #expect(lines.contains { $0.hasPrefix(check) }, "no '\(check)' line:\n\(result.stdout)")
    }
    #if os(Linux)
      #expect(lines.contains { $0.hasPrefix("ok: realmctl is a static") }, "\(result.stdout)")
    #elseif os(macOS)
      #expect(lines.contains { $0.hasPrefix("ok: realmctl is universal") }, "\(result.stdout)")
    #endif
    // A skipped part names its reason; print them for the summary of the run.
    for line in lines where line.hasPrefix("skipped:") { print("check-dist \(line)") }
  }
}

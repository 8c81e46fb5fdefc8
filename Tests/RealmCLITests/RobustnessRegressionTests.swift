import Foundation
import RealmFormat
import RealmTestSupport
import Testing

/// Damage the robustness campaigns found to trap or hang, made systematic: every node of a
/// real file gets the same damage in turn, and every command must end with a clean status.
@Suite struct RobustnessRegressionTests {
  /// Runs every inspection command on `bytes` (written to `path`) and returns their statuses.
  private func statuses(_ bytes: [UInt8], at path: String, _ label: String) throws -> [Int32] {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    var out: [Int32] = []
    for arguments in [["open", path, "--check"], ["schema", path], ["dump", path]] {
      let run = CommandRun(arguments)
      let allowed: Set<Int32> = arguments.contains("--check") ? [0, 1, 65] : [0, 65]
      #expect(allowed.contains(run.status), "\(arguments[0]) on \(label): exit \(run.status): \(run.errors)")
      out.append(run.status)
    }
    return out
  }

  /// Runs `body` with a mutator of fixture `relativePath` and a path named `name` in a fresh
  /// temporary directory (removed afterwards) for the damaged copies.
  private func withMutator(
    of relativePath: String, writingTo name: String, _ body: (RobustnessMutator, String) throws -> Void
  ) throws {
    let mutator = try RobustnessMutator(path: fixturePath(relativePath))
    let dir = try Fixtures.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    try body(mutator, dir.appendingPathComponent(name).path)
  }

  /// A has-refs node turned into a blob of 32-bit "elements" (width type 2): the integrity
  /// check's node walk read its elements as packed integers past the end of its payload, which
  /// trapped when the node lay at the end of the mapping (found with `ROBUSTNESS_SEED=777`;
  /// fixed on main by refusing blobs where refs are expected). This test sends every has-refs
  /// node of a file down that path.
  @Test func hasRefsNodesDisguisedAsBlobs() throws {
    try withMutator(of: "embedded/before.realm", writingTo: "blob.realm") { mutator, path in
      var reported = 0
      for node in mutator.nodes where node.header.hasRefs {
        let flags = UInt8(node.header.isInner ? 0x80 : 0) | 0x40 | (2 << 3) | 6
        let result = try statuses(mutator.with(node, flags: flags), at: path, "node 0x\(String(node.ref, radix: 16))")
        if result.first == 1 { reported += 1 }
      }
      // Nodes that opening does not read (collections, indexes) open fine and --check reports them.
      #expect(reported > 0)
    }
  }

  /// A cluster leaf claiming an absurd number of objects in compact form (a tagged count in
  /// slot 0): `open --check` looped over the claimed keys for ages (found by the first run of
  /// the robustness test; a leaf now holds at most 1000 objects).
  @Test func clusterLeavesWithAbsurdCompactCounts() throws {
    try withMutator(of: "to-embedded-ok/before.realm", writingTo: "count.realm") { mutator, path in
      var candidates = 0
      var refusedDumps = 0
      for node in mutator.nodes where node.header.hasRefs && !node.header.isInner && node.header.width >= 8 {
        // A compact cluster leaf has a tagged count (odd) in slot 0.
        guard node.header.count > 1, mutator.original[node.ref + 8] & 1 == 1 else { continue }
        candidates += 1
        for count: UInt64 in [1001, 0xFF_FFFF, 1 << 40, UInt64(Int64.max) >> 1] {
          let bytes = mutator.with(node, element: 0, count << 1 | 1)
          let result = try statuses(bytes, at: path, "node 0x\(String(node.ref, radix: 16)) count \(count)")
          if result[2] == 65 { refusedDumps += 1 }
        }
      }
      // Slot 0 of other arrays may be tagged too; the cluster leaves among them refuse to dump.
      #expect(candidates > 0)
      #expect(refusedDumps > 0)
    }
  }
}

import Foundation
import RealmFormat
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmCLI

/// `migrate` (and the other in-place writers) on files whose node tree is not a tree: a ref
/// that points back to one of its node's ancestors (a cycle), to the node itself, or to a node
/// reachable elsewhere (shared). Realm never writes such a file. The write path frees the nodes
/// it replaces; on such a file it would free one node twice. Every case must end in a data
/// error (exit 65, "is not a valid Realm file") or a success, never in the internal error
/// (exit 70), and a refused file stays byte for byte as it was.
@Suite struct MigrateDamagedTreeTests {
  typealias Support = CommandTestSupport

  /// Every ref slot of every node of `person-rename-age/before.realm` pointed at each of the
  /// node's ancestors and at itself, under the in-place rename (metadata edit), the column-wise
  /// removal of a property, and `rename-property`.
  @Test func refsToAncestorsNeverEndInAnInternalError() throws {
    try Support.inScratchDirectory { dir in
      let mutator = try RobustnessMutator(path: fixturePath("person-rename-age/before.realm"))
      let byRef = Dictionary(mutator.nodes.map { ($0.ref, $0) }, uniquingKeysWith: { a, _ in a })
      var cases: [(String, [UInt8])] = []
      for node in mutator.nodes {
        var ancestors: [Int] = [node.ref]
        var current = node.parent
        while current != 0, ancestors.count < 64, let up = byRef[current] {
          ancestors.append(current)
          current = up.parent
        }
        if !mutator.nodes.isEmpty { ancestors.append(mutator.nodes[0].ref) }  // the top array
        for slot in node.refSlots {
          for target in Set(ancestors) {
            cases.append(("node 0x\(String(node.ref, radix: 16)) element \(slot) = 0x\(String(target, radix: 16))",
                          mutator.with(node, element: slot, UInt64(target))))
          }
        }
      }
      #expect(cases.count > 50)
      let path = dir.appendingPathComponent("damaged.realm").path
      let commands: [[String]] = [
        ["migrate", "--plan", fixturePath("person-rename-age/plan.json"), path],
        ["migrate", "--plan", fixturePath("person-remove-age/plan.json"), path],
        ["rename-property", path, "Person", "age", "years"],
      ]
      var statuses: [Int32: Int] = [:]
      var reachedTwice = 0
      for (label, bytes) in cases {
        for command in commands {
          try Support.write(bytes, to: path)
          let run = CommandRun(command)
          statuses[run.status, default: 0] += 1
          #expect([0, 65].contains(run.status), "\(command[0]) \(command.count > 2 ? command[2] : "") on \(label): exit \(run.status): \(run.errors)")
          if run.status == 65 { #expect(run.errors.hasPrefix("Error: "), "\(label): \(run.errors)") }
          if run.errors.contains("is reached twice from the top") {
            reachedTwice += 1
            #expect(run.errors.contains("'damaged.realm' is not a valid Realm file"), "\(label): \(run.errors)")
          }
          if run.status != 0 {
            #expect(TestFiles.same(try Support.bytes(path), bytes), "\(command[0]) on \(label) changed the file")
          }
        }
      }
      #expect((statuses[65] ?? 0) > 0, "\(statuses)")
      // The cases that once ended in exit 70 ("freed twice") are refused before writing.
      #expect(reachedTwice > 0)
    }
  }

  /// The regression case of the 'freed twice' bug: the first ref of the table-names array's
  /// parent (the top array) pointed back at the top array. A write transaction refuses the file
  /// as damaged when it begins, before anything is written; reading it stays possible.
  @Test func transactionRefusesACycleBeforeWriting() throws {
    try Support.inScratchDirectory { dir in
      let mutator = try RobustnessMutator(path: fixturePath("person-rename-age/before.realm"))
      let top = try #require(mutator.nodes.first)
      let slot = try #require(top.refSlots.first)
      let bytes = mutator.with(top, element: slot, UInt64(top.ref))
      let path = dir.appendingPathComponent("cycle.realm").path
      try expectRefusedBeforeWriting(bytes, at: path)
      let run = CommandRun(["migrate", "--plan", fixturePath("person-rename-age/plan.json"), path])
      expectEqual(run.status, 65, "\(run.errors)")
      #expect(TestFiles.same(try Support.bytes(path), bytes))
    }
  }

  /// The check reads the elements of 32-bit has-refs nodes two at a time: a ref back to the
  /// node itself is found at an even and at an odd position of such a node, among the nodes of
  /// a file large enough to have them (`alltypes`, 5 MiB), and the file stays untouched.
  @Test func cyclesInWideNodesAreFoundAtEveryPosition() throws {
    try Support.inScratchDirectory { dir in
      let mutator = try RobustnessMutator(path: fixturePath("alltypes/before.realm"))
      let wide = mutator.nodes.filter { $0.header.width == 32 && $0.refSlots.count >= 2 }
      try #require(!wide.isEmpty, "alltypes has 32-bit has-refs nodes")
      let path = dir.appendingPathComponent("cycle.realm").path
      var tried = 0
      for node in wide.prefix(8) {
        let even = try #require(node.refSlots.first { $0 % 2 == 0 } ?? node.refSlots.first)
        let odd = try #require(node.refSlots.first { $0 % 2 == 1 } ?? node.refSlots.last)
        for slot in Set([even, odd, node.refSlots.last!]) {
          try expectRefusedBeforeWriting(mutator.with(node, element: slot, UInt64(node.ref)), at: path)
          tried += 1
        }
      }
      #expect(tried >= 2)
    }
  }

  /// Writes `bytes` to `path` and expects a write transaction to refuse the file as a node
  /// reached twice when it begins, leaving it byte for byte as it was.
  func expectRefusedBeforeWriting(
    _ bytes: [UInt8], at path: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try Support.write(bytes, to: path)
    #expect(sourceLocation: sourceLocation) {
      _ = try WriteTransaction.begin(path: path)
    } throws: { error in
      guard let error = error as? StorageError else { return false }
      return error.code == .corrupt && error.detail.contains("is reached twice from the top")
    }
    #expect(TestFiles.same(try Support.bytes(path), bytes), sourceLocation: sourceLocation)
  }
}

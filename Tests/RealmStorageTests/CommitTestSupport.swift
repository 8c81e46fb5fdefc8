import Foundation
import RealmTestSupport
import Testing

@testable import RealmStorage
import RealmFormat

#if canImport(Glibc)
  import Glibc
#endif

/// Helpers shared by the commit, lock and crash tests.
enum CommitTestSupport {
  /// A fresh copy of fixture `relativePath` in its own temporary directory.
  static func copyFixture(
    _ relativePath: String, from location: FixtureLocation = .committed, as name: String = "test.realm"
  ) throws -> String {
    let dir = try Fixtures.temporaryDirectory()
    let destination = dir.appendingPathComponent(name).path
    try write(try bytes(location.path(relativePath)), to: destination)
    return destination
  }

  struct IOError: Error, CustomStringConvertible {
    var description: String
  }

  /// Writes `data` to `path` (``TestFiles/write(_:to:)``: retried on EINTR).
  static func write(_ data: [UInt8], to path: String) throws { try TestFiles.write(data, to: path) }

  /// Removes the directory of a copy made by ``copyFixture(_:from:as:)``.
  static func removeCopy(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  /// The bytes of the file at `path`.
  static func bytes(_ path: String) throws -> [UInt8] { try TestFiles.bytes(path) }

  typealias LogicalState = RealmTestSupport.LogicalState

  static func logicalState(_ bytes: [UInt8]) throws -> LogicalState { try LogicalState(bytes) }

  /// Every node reachable from `top` in `bytes`, as (ref, bytes).
  static func reachableNodes(_ bytes: [UInt8], top: Ref) throws -> [Int: [UInt8]] {
    let reader = ByteReader(bytes: bytes)
    var nodes: [Int: [UInt8]] = [:]
    try NodeWalk(reader: reader).walk(top) { (ref, size) throws(FormatError) in
      nodes[ref.rawValue] = try reader.array(at: ref.rawValue, count: size)
    }
    return nodes
  }

  /// Copies the node at `ref` with one letter of its payload changed (a renamed table when
  /// `ref` is the table-names array).
  static func renamedCopy(of ref: Ref, in reader: ByteReader) throws -> [UInt8] {
    let node = try ArrayNode(reader, ref)
    var bytes = try reader.array(at: ref.rawValue, count: node.header.byteSize)
    // A group without tables has no letter to change: then the copy is identical.
    if let letter = bytes.indices.dropFirst(8).first(where: {
      (65...90).contains(bytes[$0]) || (97...122).contains(bytes[$0])
    }) {
      bytes[letter] ^= 0x20
    }
    return bytes
  }

  /// Rewrites every node of the group (slots 0 and 1) copy-on-write: a transaction as large
  /// as the file. Returns the new refs for slots 0 and 1.
  static func rewriteEverything(_ tx: WriteTransaction) throws -> (names: Ref, tables: Ref) {
    let top = try #require(tx.top)
    func copy(_ ref: Ref) throws -> Ref {
      let node = try ArrayNode(tx.reader, ref)
      let bytes: [UInt8]
      if node.hasRefs {
        var values: [Int64] = []
        values.reserveCapacity(node.count)
        for i in 0..<node.count {
          let raw = try node.get(i)
          if raw != 0, raw & 1 == 0 {
            values.append(Int64(try copy(Ref(Int(raw))).rawValue))
          } else {
            values.append(raw)
          }
        }
        bytes = IntegerArrayEncoding.encode(
          values, hasRefs: true, isInner: node.isInner, contextFlag: node.contextFlag)
      } else {
        bytes = try tx.reader.array(at: ref.rawValue, count: node.header.byteSize)
      }
      try tx.free(ref)
      return try tx.allocate(bytes)
    }
    return (try copy(try top.ref(0)), try copy(try top.ref(1)))
  }

  /// The path of the running test executable (children re-launch it).
  static var testExecutable: String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
  }

  /// Runs one test of this binary in a child process with `environment` added.
  static func runChildTest(
    named filter: String, environment: [String: String], stdout: Pipe? = nil, stdin: Pipe? = nil
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: testExecutable)
    process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    process.standardOutput = stdout ?? FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    if let stdin { process.standardInput = stdin }
    try process.run()
    return process
  }
}

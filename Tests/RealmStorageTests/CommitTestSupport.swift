import Foundation
import RealmTestBytes
import RealmTestSupport
import Testing

@testable import RealmStorage
import RealmFormat

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
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

  /// Runs `body` with the path of a fresh copy of fixture `relativePath` (see
  /// ``copyFixture(_:from:as:)``), removed afterwards; returns what `body` returns.
  static func withCopy<T>(
    of relativePath: String, from location: FixtureLocation = .committed, _ body: (_ path: String) throws -> T
  ) throws -> T {
    let path = try copyFixture(relativePath, from: location)
    defer { removeCopy(path) }
    return try body(path)
  }

  /// Transaction options that never reuse freed space (every new node is appended).
  static var appendOnly: WriteTransaction.Options {
    var options = WriteTransaction.Options()
    options.freeSpace = .appendOnly
    return options
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

  typealias LogicalState = RealmTestBytes.LogicalState

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
        bytes = NodeEncoder.refArray(values, isInner: node.isInner, contextFlag: node.contextFlag)
      } else {
        bytes = try tx.reader.array(at: ref.rawValue, count: node.header.byteSize)
      }
      try tx.free(ref)
      return try tx.allocate(bytes)
    }
    return (try copy(try top.ref(0)), try copy(try top.ref(1)))
  }

  /// Runs `commit` on fresh copies of `fixture`, with each file operation in turn made to fail
  /// (ENOSPC, before it runs) until a run gets through. Every failing run must throw an I/O
  /// error and leave the file byte for byte as before or (`plaintext` of it) in the new
  /// version; `whenNew` checks a file left new. Returns, per failing run, whether it was new.
  static func outcomesOfFailingEachOperation(
    of fixture: String, plaintext: ([UInt8]) throws -> [UInt8] = { $0 },
    commit: (_ path: String, _ faultInjection: @escaping @Sendable (FaultPoint) -> FaultAction) throws -> Void,
    whenNew: (_ path: String) throws -> Void = { _ in }
  ) throws -> [Bool] {
    func run(failAt: Int?) throws -> (path: String, failed: Bool) {
      let path = try copyFixture(fixture)
      do {
        try commit(path) { point in point.index == failAt && point.isBefore ? .fail(errno: ENOSPC) : .proceed }
        return (path, false)
      } catch let error as StorageError {
        expectEqual(error.code, .io)
        return (path, true)
      }
    }
    let before = try Fixtures.bytes(fixture)
    let reference = try run(failAt: nil).path
    let newState = try logicalState(try plaintext(try bytes(reference)))
    removeCopy(reference)
    var outcomes: [Bool] = []
    while true {
      let failAt = outcomes.count
      let (path, failed) = try run(failAt: failAt)
      defer { removeCopy(path) }
      guard failed else { break }
      let after = try bytes(path)
      let isNew = try logicalState(try plaintext(after)) == newState
      #expect(isNew || after == before, "failure at operation \(failAt) changed the file")
      if isNew { try whenNew(path) }
      outcomes.append(isNew)
    }
    return outcomes
  }
}

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

  /// Writes `data` to a new file at `path` (POSIX calls, retried on EINTR: child processes of
  /// the lock and crash tests deliver SIGCHLD, which Foundation's file APIs do not retry).
  static func write(_ data: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw IOError(description: "open '\(path)': errno \(errno)") }
    defer { close(fd) }
    var done = 0
    while done < data.count {
      let n = data.withUnsafeBytes {
        Glibc.write(fd, $0.baseAddress.map { $0 + done }, data.count - done)
      }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { throw IOError(description: "write '\(path)': errno \(errno)") }
      done += n
    }
  }

  /// Removes the directory of a copy made by ``copyFixture(_:from:as:)``.
  static func removeCopy(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  /// The bytes of the file at `path`.
  static func bytes(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw IOError(description: "open '\(path)': errno \(errno)") }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else { throw IOError(description: "read '\(path)': errno \(errno)") }
      if n == 0 { return out }
      out.append(contentsOf: chunk[..<n])
    }
  }

  /// The version a file holds, independent of where free space is: the live top ref, format,
  /// and a digest of every reachable node (ref and bytes, in walk order).
  struct LogicalState: Equatable, CustomStringConvertible {
    var topRef: Int
    var format: UInt8
    var nodeCount: Int
    var digest: UInt64
    var description: String {
      "top \(topRef) format \(format) nodes \(nodeCount) digest \(String(digest, radix: 16))"
    }
  }

  static func logicalState(_ bytes: [UInt8]) throws -> LogicalState {
    let reader = ByteReader(bytes: bytes)
    let header = try HeaderState(reader: reader)
    let top = Ref(Int(header.currentTop))
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var count = 0
    try NodeWalk(reader: reader).walk(top) { (ref, size) throws(FormatError) in
      count += 1
      hash = (hash ^ UInt64(ref.rawValue)) &* 0x100_0000_01b3
      let payload = try reader.bytes(at: ref.rawValue + 4, count: size - 4)
      // 8 bytes at a time: fast enough in debug builds for multi-megabyte files.
      var i = 0
      while i + 8 <= payload.count {
        hash = (hash ^ payload.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x100_0000_01b3
        i += 8
      }
      while i < payload.count {
        hash = (hash ^ UInt64(payload[i])) &* 0x100_0000_01b3
        i += 1
      }
    }
    return LogicalState(
      topRef: top.rawValue, format: header.currentFormat, nodeCount: count, digest: hash)
  }

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

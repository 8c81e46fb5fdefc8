import Foundation
import RealmFormat
import RealmStorage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading and writing whole test files with POSIX calls retried on `EINTR`: the child
/// processes of the lock and crash tests deliver `SIGCHLD`, which Foundation's file APIs do
/// not retry.
public enum TestFiles {
  /// A failed system call on a test file.
  public struct IOError: Error, CustomStringConvertible {
    public var description: String
  }

  /// True when `a` and `b` hold the same bytes. Compared here, in an optimised module: the test
  /// targets are compiled unoptimised, where `[UInt8] ==` runs the standard library's generic
  /// code one element at a time (the crash loops compare whole files at every kill point).
  public static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool { a == b }

  /// True when two slices hold the same bytes (as the arrays' `same`, for the lines of a dump).
  public static func same(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool { a == b }

  /// The lines of `bytes` (split at `\n`, empty lines left out), split here in an optimised
  /// module: unoptimised, `split` walks a dump one byte at a time through generic code.
  public static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] { bytes.split(separator: 0x0A) }

  /// The file format of the live snapshot of the Realm file at `path`, from its header; nil
  /// when the file cannot be read or its header is not a Realm file's.
  public static func fileFormat(_ path: String) -> Int? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return try? FileHeader(reader: ByteReader(bytes: [UInt8](data))).fileFormat
  }

  /// The object key of each line of a JSON Lines dump (the integer after the line's first
  /// `"$key":`); lines without one are left out.
  public static func objectKeys(inDump bytes: [UInt8]) -> [Int64] {
    let marker = Array(#""$key":"#.utf8)
    var keys: [Int64] = []
    for line in lines(bytes) {
      guard let at = line.firstRange(of: marker) else { continue }
      let digits = line[at.upperBound...].prefix { $0 == UInt8(ascii: "-") || ($0 >= 0x30 && $0 <= 0x39) }
      if let key = Int64(String(decoding: digits, as: UTF8.self)) { keys.append(key) }
    }
    return keys
  }

  /// The parts of `bytes` between the `separator` bytes (empty parts kept when `keepingEmpty`),
  /// as ``lines(_:)`` splits them, in an optimised module.
  public static func split(_ bytes: ArraySlice<UInt8>, at separator: UInt8, keepingEmpty: Bool = false) -> [ArraySlice<UInt8>] {
    bytes.split(separator: separator, omittingEmptySubsequences: !keepingEmpty)
  }

  /// The bytes of the file at `path`.
  public static func bytes(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw IOError(description: "open '\(path)': errno \(errno)") }
    defer { close(fd) }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n < 0, errno == EINTR { continue }
      guard n >= 0 else { throw IOError(description: "read '\(path)': errno \(errno)") }
      if n == 0 { return out }
      out.append(contentsOf: chunk[..<n])
    }
  }

  /// Writes `data` to `path`, replacing what was there.
  public static func write(_ data: [UInt8], to path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw IOError(description: "open '\(path)': errno \(errno)") }
    defer { close(fd) }
    var done = 0
    while done < data.count {
      let n = data.withUnsafeBytes { Foundation.write(fd, $0.baseAddress.map { $0 + done }, data.count - done) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { throw IOError(description: "write '\(path)': errno \(errno)") }
      done += n
    }
  }
}

/// The version a Realm file holds, independent of where free space is: the live top ref,
/// format, and a digest of every reachable node (ref and bytes, in walk order). Two files with
/// equal states hold the same data in the same nodes; crash tests compare a file after a kill
/// with the states before and after the write.
public struct LogicalState: Equatable, CustomStringConvertible, Sendable {
  public var topRef: Int
  public var format: UInt8
  public var nodeCount: Int
  public var digest: UInt64

  public var description: String {
    "top \(topRef) format \(format) nodes \(nodeCount) digest \(String(digest, radix: 16))"
  }

  /// The state of the file whose bytes are `bytes`.
  public init(_ bytes: [UInt8]) throws {
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
    self.init(topRef: top.rawValue, format: header.currentFormat, nodeCount: count, digest: hash)
  }

  /// A state from its parts.
  public init(topRef: Int, format: UInt8, nodeCount: Int, digest: UInt64) {
    self.topRef = topRef
    self.format = format
    self.nodeCount = nodeCount
    self.digest = digest
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import RealmStorage

/// Several edits committed all or nothing (the shell's `BEGIN` ... `COMMIT`).
///
/// `begin` takes the realm's exclusive lock (so no app or other realmctl writes it meanwhile)
/// and copies the file into a private working directory beside it; every statement edits the
/// working copy with the ordinary atomic paths (a failed statement leaves the copy as it was).
/// `commit` puts the working copy in place with `AtomicFileReplacement` (a crash leaves the
/// old or the new file); `rollback` drops it. The realm itself is not written before `commit`.
public final class EditTransaction {
  /// The realm.
  public let path: String
  /// The working copy the statements edit.
  public let workingPath: String
  let directory: String
  var lock: FileLock?

  /// Marks the working directories: `FILE.realmctl-tx-XXXXXX`.
  static let directoryInfix = ".realmctl-tx-"

  private init(path: String, workingPath: String, directory: String, lock: FileLock) {
    self.path = path
    self.workingPath = workingPath
    self.directory = directory
    self.lock = lock
  }

  /// Locks the realm and makes its working copy. Working directories and replacement files a
  /// killed transaction left behind are removed first (under the lock, none is in use).
  public static func begin(path: String) throws -> EditTransaction {
    let lock = try FileLock(exclusiveForRealmAt: path)
    do {
      removeStaleDirectories(of: path)
      AtomicFileReplacement.removeStaleTemporaryFiles(of: path)
      var template = Array((path + directoryInfix + "XXXXXX").utf8CString)
      let made = template.withUnsafeMutableBufferPointer { b -> Bool in b.baseAddress.map { mkdtemp($0) != nil } ?? false }
      guard made else { throw StorageError.system("mkdtemp", path: path, errno: errno) }
      let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let name = path.split(separator: "/").last.map(String.init) ?? "realm"
      let working = directory + "/" + name
      do {
        try FileCopy.copy(from: path, to: working)
      } catch {
        removeDirectory(directory)
        throw error
      }
      return EditTransaction(path: path, workingPath: working, directory: directory, lock: lock)
    } catch {
      lock.release()
      throw error
    }
  }

  /// True until `commit` or `rollback`.
  public var isOpen: Bool { lock != nil }

  /// Replaces the realm with the working copy, atomically, and ends the transaction.
  ///
  /// - Parameter faultInjection: test hook called before each file-changing call.
  public func commit(faultInjection: (@Sendable (FaultPoint) -> FaultAction)? = nil) throws {
    guard let lock else { throw StorageError.misuse("the transaction is already over") }
    defer { end() }
    let input = open(workingPath, O_RDONLY | O_CLOEXEC)
    guard input >= 0 else { throw StorageError.system("open", path: workingPath, errno: errno) }
    defer { close(input) }
    // The working copy's bytes as they are (an encrypted realm's copy is encrypted already).
    try AtomicFileReplacement.replace(path: path, lock: lock, encryptionKey: nil, faultInjection: faultInjection) { out in
      var buffer = [UInt8](repeating: 0, count: 1 << 20)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if n < 0 {
          if errno == EINTR { continue }
          throw StorageError.system("read", path: workingPath, errno: errno)
        }
        if n == 0 { break }
        try buffer.withUnsafeBytes { try out.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
      }
    }
  }

  /// Drops the working copy and ends the transaction; the realm is as it was at `begin`.
  public func rollback() { end() }

  private func end() {
    Self.removeDirectory(directory)
    lock?.release()
    lock = nil
  }

  deinit { if lock != nil { end() } }

  /// Removes a working directory and what realmctl put in it (the copy, its lock and
  /// management files, temporary files of replacements).
  static func removeDirectory(_ directory: String) {
    if let handle = opendir(directory) {
      var names: [String] = []
      while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
      }
      closedir(handle)
      for name in names {
        let p = directory + "/" + name
        if unlink(p) != 0 { removeDirectory(p) }
      }
    }
    rmdir(directory)
  }

  /// Removes `FILE.realmctl-tx-XXXXXX` directories of `path` (left by a killed shell).
  static func removeStaleDirectories(of path: String) {
    let dir: String
    let name: Substring
    if let slash = path.lastIndex(of: "/") {
      dir = slash == path.startIndex ? "/" : String(path[..<slash])
      name = path[path.index(after: slash)...]
    } else {
      dir = "."
      name = Substring(path)
    }
    let prefix = name + directoryInfix
    guard let handle = opendir(dir) else { return }
    var stale: [String] = []
    while let entry = readdir(handle) {
      let entryName = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if entryName.utf8.count == prefix.utf8.count + 6 && entryName.hasPrefix(prefix) { stale.append(entryName) }
    }
    closedir(handle)
    for entry in stale { removeDirectory(dir + "/" + entry) }
  }
}

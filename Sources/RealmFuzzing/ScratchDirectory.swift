import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private directory per process and thread for the files a target hands to commands (the
/// input as a `.realm` file, a plan, created files): in `/dev/shm` when it has room (1 GiB
/// free), so that the file system costs no disk I/O, else in the temporary directory. Removed
/// at exit.
///
/// One per thread, so that the regression tests, which run kept inputs of one target in
/// parallel, never hand a command another input's file (or its lock).
final class ScratchDirectory: @unchecked Sendable {
  /// The directory of the calling thread (below ``root``).
  static var shared: ScratchDirectory {
    let key = "realmctl.fuzz.scratch"
    let threadDictionary = Thread.current.threadDictionary
    if let existing = threadDictionary[key] as? ScratchDirectory { return existing }
    made.lock()
    count += 1
    let path = "\(root)/thread-\(count)"
    made.unlock()
    guard mkdir(path, 0o700) == 0 else { fatalError("cannot create the scratch directory \(path): errno \(errno)") }
    let directory = ScratchDirectory(path: path)
    threadDictionary[key] = directory
    return directory
  }

  /// The directory of this process, which holds every thread's.
  static let root: String = {
    let base = usableSharedMemory() ? "/dev/shm" : NSTemporaryDirectory()
    var template = Array("\(base)/realmctl-fuzz-\(getpid())-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else { fatalError("cannot create a scratch directory in \(base): errno \(errno)") }
    let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    ScratchDirectory.removeAtExit = path
    atexit { if let p = ScratchDirectory.removeAtExit { try? FileManager.default.removeItem(atPath: p) } }
    return path
  }()

  /// Whether `/dev/shm` is writable with room to spare: a container's is often 64 MiB, which
  /// the files of parallel regression tests could fill (a failed write stops the process).
  private static func usableSharedMemory() -> Bool {
    guard FileManager.default.isWritableFile(atPath: "/dev/shm") else { return false }
    var info = statvfs()
    guard statvfs("/dev/shm", &info) == 0 else { return false }
    return UInt64(info.f_bavail) * UInt64(info.f_frsize) >= 1 << 30
  }

  nonisolated(unsafe) private static var removeAtExit: String?
  nonisolated(unsafe) private static var count = 0
  private static let made = NSLock()

  /// Its path.
  let path: String
  private let lock = NSLock()

  private init(path: String) { self.path = path }

  /// The path of `name` in the directory.
  func file(_ name: String) -> String { "\(path)/\(name)" }

  /// Replaces file `name` by `bytes` and returns its path (where no file is when the write
  /// failed).
  @discardableResult
  func write(_ bytes: [UInt8], to name: String) -> String {
    let target = file(name)
    lock.lock()
    defer { lock.unlock() }
    unlink(target)
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: target))
    } catch {
      // A full disk is not the input's fault, and stopping here would take every other test
      // of the process with it: the command given this path finds no file and the target
      // reports that as a problem of this input, with this line on standard error.
      unlink(target)
      FileHandle.standardError.write(Data("ScratchDirectory: cannot write \(target): \(error)\n".utf8))
    }
    return target
  }

  /// The path of `name` in the directory, for a command to create: a file of that name (and a
  /// `.lock` beside it) left by an earlier input is removed.
  func freshFile(_ name: String) -> String {
    let path = file(name)
    unlink(path)
    unlink(path + ".lock")
    return path
  }
}

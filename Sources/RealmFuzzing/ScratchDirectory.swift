import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A private directory per process for the files a target hands to commands (the input as a
/// `.realm` file, a plan, created files): in `/dev/shm` when it exists, so that the file
/// system costs no disk I/O, else in the temporary directory. Removed at exit.
final class ScratchDirectory: @unchecked Sendable {
  /// The directory of this process.
  static let shared = ScratchDirectory()

  /// Its path.
  let path: String
  private let lock = NSLock()

  private init() {
    let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
    var template = Array("\(base)/realmctl-fuzz-\(getpid())-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    guard made != nil else { fatalError("cannot create a scratch directory in \(base): errno \(errno)") }
    path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let toRemove = path
    ScratchDirectory.removeAtExit = toRemove
    atexit { if let p = ScratchDirectory.removeAtExit { try? FileManager.default.removeItem(atPath: p) } }
  }

  nonisolated(unsafe) private static var removeAtExit: String?

  /// The path of `name` in the directory.
  func file(_ name: String) -> String { "\(path)/\(name)" }

  /// Replaces file `name` by `bytes` and returns its path.
  @discardableResult
  func write(_ bytes: [UInt8], to name: String) -> String {
    let target = file(name)
    lock.lock()
    defer { lock.unlock() }
    unlink(target)
    do {
      try Data(bytes).write(to: URL(fileURLWithPath: target))
    } catch {
      fatalError("cannot write \(target): \(error)")
    }
    return target
  }

  /// Removes file `name` (and a `.lock` beside it) if present.
  func remove(_ name: String) {
    unlink(file(name))
    unlink(file(name) + ".lock")
  }
}

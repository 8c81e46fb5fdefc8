import Foundation

/// Another process holding a realm's lock file the way a Realm app does (a shared `flock` for
/// its whole session), through util-linux's `flock` command, until ``release()``. Shared by
/// the lock tests of the storage library and of the commands.
public final class FlockHolder {
  /// util-linux's `flock` command.
  public static let command = "/usr/bin/flock"
  /// Whether ``command`` is installed (the tests that need it are skipped otherwise).
  public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: command) }

  static let heldMarker = "REALMCTL-LOCK-HELD"

  struct NotHeld: Error, CustomStringConvertible {
    var description: String { "\(FlockHolder.command) ended without taking the lock" }
  }

  private let process = Process()
  private let input = Pipe()
  private var released = false

  /// Starts `flock --shared lockPath` and returns once it holds the lock.
  public init(sharedLockOn lockPath: String) throws {
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: Self.command)
    process.arguments = ["--shared", lockPath, "sh", "-c", "echo \(Self.heldMarker); cat >/dev/null"]
    process.standardOutput = output
    process.standardInput = input
    try process.run()
    guard waitForMarker(Self.heldMarker, on: output) else {
      release()
      throw NotHeld()
    }
  }

  /// Ends the holding process, which releases the lock, and waits until it has ended (once:
  /// later calls do nothing).
  public func release() {
    guard !released else { return }
    released = true
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}

/// Waits (without a timeout: the process writing to `pipe` either prints it or ends) until
/// `marker` has been written to `pipe`; false when the pipe ends first.
public func waitForMarker(_ marker: String, on pipe: Pipe) -> Bool {
  var seen = ""
  while true {
    let data = pipe.fileHandleForReading.availableData
    if data.isEmpty { return false }
    seen += String(decoding: data, as: UTF8.self)
    if seen.contains(marker) { return true }
  }
}

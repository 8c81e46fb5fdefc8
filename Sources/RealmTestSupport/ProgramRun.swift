import Foundation
import ProcessSpawn

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program to its end and collects what it printed: `posix_spawn`, its two outputs
/// read together with `poll`, `waitpid`.
///
/// The suite runs Realm's oracle tens of thousands of times, a few milliseconds each;
/// Foundation's `Process` spent about 0.75 ms of this process's CPU on each run, this about 0.2.
///
/// ```swift
/// let run = try ProgramRun.run(["/usr/bin/env", "true"])
/// #expect(run.status == 0)
/// ```
public enum ProgramRun {
  /// What one run printed, and how it ended.
  public struct Outcome: Sendable {
    /// The exit status; 128 + the signal's number when a signal ended it.
    public var status: Int32
    /// Standard output.
    public var output: [UInt8]
    /// Standard error.
    public var errorOutput: [UInt8]
  }

  /// Why a program could not be run.
  public struct Failure: Error, CustomStringConvertible {
    /// What failed, with the C library's words.
    public var description: String
  }

  /// Runs `arguments` (the program's path first) with this process's environment, standard
  /// input from `/dev/null` and `SIGPIPE` at its default, and waits for its end.
  public static func run(_ arguments: [String]) throws -> Outcome {
    let out = try pipeEnds()
    let err: (read: Int32, write: Int32)
    do {
      err = try pipeEnds()
    } catch {
      close(out.read)
      close(out.write)
      throw error
    }
    // Each descriptor is closed exactly once: another thread may reuse its number at once.
    defer {
      close(out.read)
      close(err.read)
    }
    var spawn = ProcessSpawn(arguments, searchingPath: false)
    spawn.fileActions = [.open(0, "/dev/null", O_RDONLY), .duplicate(out.write, as: 1), .duplicate(err.write, as: 2)]
    // As a shell starts it: SIGPIPE at its default even when this process ignores it (the
    // server tests do), so that `yes | head` ends quietly.
    spawn.defaultSignals = [SIGPIPE]
    // Other descriptors are left to their close-on-exec flags (RealmStorage sets it on every
    // file it opens): closing all of them in each child cost the index checks 15% more CPU, for
    // programs that live a few milliseconds.
    let started = Result { try spawn.start() }
    close(out.write)
    close(err.write)
    let pid: pid_t
    switch started {
    case .success(let id): pid = id
    case .failure(let error): throw Failure(description: "cannot start \(arguments.first ?? ""): \(error)")
    }
    var outcome = Outcome(status: 0, output: [], errorOutput: [])
    drain(out.read, into: &outcome.output, err.read, into: &outcome.errorOutput)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else { throw Failure(description: "waitpid: \(String(cString: strerror(errno)))") }
    }
    let signal = status & 0x7f
    outcome.status = signal == 0 ? (status >> 8) & 0xff : 128 + signal
    return outcome
  }

  /// A connected pair whose ends are closed on exec, created so atomically: a program another
  /// thread starts meanwhile must not inherit them, or the reader would wait for its end too.
  /// (A socket pair, because Swift's Glibc module has `SOCK_CLOEXEC` but not `pipe2`, which
  /// RealmMigration's `ExecProcess` looks up at run time instead.)
  private static func pipeEnds() throws -> (read: Int32, write: Int32) {
    var ends: [Int32] = [-1, -1]
    #if canImport(Glibc)
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      guard socketpair(AF_UNIX, type, 0, &ends) == 0 else { throw Failure(description: "socketpair: \(String(cString: strerror(errno)))") }
    #else
      guard pipe(&ends) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    #endif
    return (ends[0], ends[1])
  }

  /// Reads both descriptors to their ends, whichever has data first (a program that fills
  /// one pipe while the other is not read would block forever).
  private static func drain(_ a: Int32, into first: inout [UInt8], _ b: Int32, into second: inout [UInt8]) {
    var fds = [pollfd(fd: a, events: Int16(POLLIN), revents: 0), pollfd(fd: b, events: Int16(POLLIN), revents: 0)]
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while fds.contains(where: { $0.fd >= 0 }) {
      guard poll(&fds, nfds_t(fds.count), -1) >= 0 else {
        if errno == EINTR { continue }
        return
      }
      for i in fds.indices where fds[i].fd >= 0 && fds[i].revents != 0 {
        let n = buffer.withUnsafeMutableBytes { read(fds[i].fd, $0.baseAddress, $0.count) }
        if n > 0 {
          if i == 0 { first += buffer[0..<n] } else { second += buffer[0..<n] }
        } else if n == 0 || errno != EINTR {
          fds[i].fd = -1  // poll ignores negative descriptors
        }
      }
    }
  }
}

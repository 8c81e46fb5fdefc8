import Foundation
import RealmCLI

/// Runs one `realmctl` command line in-process, as `RealmCtl.run` does for the tool, and
/// checks what every command promises: an allowed exit status (never 70, "internal error"),
/// a one-line `Error: ` message naming the problem when it fails, and no more output than
/// `outputLimit` bytes.
///
/// Standard output is counted, not kept (only its first bytes), so an input that makes a
/// command print without end is reported instead of filling memory.
struct CommandProbe {
  /// The exit status.
  var status: Int32
  /// The first bytes of standard output.
  var outputPrefix: [UInt8]
  /// How many bytes standard output received.
  var outputCount: Int
  /// Standard error.
  var errors: String
  /// The command line, for messages.
  var label: String

  /// Standard output's first bytes as text.
  var outputText: String { String(decoding: outputPrefix, as: UTF8.self) }

  /// Runs `arguments` (the words after `realmctl`).
  init(_ arguments: [String], keep: Int = 1 << 16) {
    label = "realmctl " + arguments.map { $0.hasPrefix(ScratchDirectory.root) ? "<\(($0 as NSString).lastPathComponent)>" : $0 }.joined(separator: " ")
    let out = CountingDestination(keep: keep)
    let err = MemoryDestination()
    status = RealmCtl.run(
      arguments: arguments, standardOutput: TextOutput(out), standardError: TextOutput(err))
    outputPrefix = out.prefix
    outputCount = out.count
    errors = String(decoding: err.bytes, as: UTF8.self)
  }

  /// The broken promises of this run: `allowed` exit statuses, `outputLimit` bytes at most.
  func problems(allowed: Set<Int32>, outputLimit: Int? = nil) -> [String] {
    let command = label
    var found: [String] = []
    if !allowed.contains(status) {
      let said = errors.isEmpty ? String(outputText.suffix(500)) : String(errors.prefix(500))
      found.append("\(command): exit status \(status) (allowed: \(allowed.sorted())): \(said)")
    }
    // Warnings ("realmctl: warning: …", e.g. an unreadable search index) may come first.
    let message = errors.split(separator: "\n").first { !$0.hasPrefix("realmctl: warning: ") } ?? ""
    if status != 0 && status != 1 && !(message.hasPrefix("Error: ") || message.hasPrefix("error: ")) {
      found.append("\(command): exit status \(status) without an error message: \(errors.prefix(200))")
    }
    if let outputLimit, outputCount > outputLimit {
      found.append("\(command): printed \(outputCount) bytes, more than the \(outputLimit) allowed")
    }
    return found
  }
}

/// The command lines a target runs on one input, and the broken promises they gathered.
struct ProbeLog {
  /// The output bound of reading commands (``FuzzTarget/outputLimit(fileSize:)``).
  let outputLimit: Int
  private(set) var problems: [String] = []

  init(outputLimit: Int) { self.outputLimit = outputLimit }

  /// Runs `arguments`; its status must be in `allowed`, its output within the bound when
  /// `bounded` (commands that write print reports, not the file's values).
  @discardableResult
  mutating func run(_ arguments: [String], allowed: Set<Int32> = [0, 65], bounded: Bool = true) -> CommandProbe {
    let run = CommandProbe(arguments)
    problems += run.problems(allowed: allowed, outputLimit: bounded ? outputLimit : nil)
    return run
  }

  /// Records a broken promise the target checks itself.
  mutating func record(_ problem: String) { problems.append(problem) }
}

/// An output destination that counts the bytes and keeps the first `keep` of them.
final class CountingDestination: OutputDestination {
  private(set) var count = 0
  private(set) var prefix: [UInt8] = []
  let keep: Int

  init(keep: Int) { self.keep = keep }

  func writeAll(_ bytes: UnsafeRawBufferPointer) throws(RealmCtlError) {
    count += bytes.count
    if prefix.count < keep { prefix.append(contentsOf: bytes.prefix(keep - prefix.count)) }
  }
}

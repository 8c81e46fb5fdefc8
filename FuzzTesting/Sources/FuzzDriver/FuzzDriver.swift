import CLibFuzzer
import Foundation
import RealmFuzzing

/// The target this process fuzzes, set once by ``FuzzDriver/main(target:)`` before libFuzzer
/// starts calling ``fuzzTestOneInput(_:_:)``.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// libFuzzer's per-input callback: runs the target's logic; a broken promise is reported and
/// turned into a crash (abort), so that libFuzzer keeps the input as `crash-<sha1>`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let target = selectedTarget else { return 0 }
  let input = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
  let problems = target.run(input)
  if !problems.isEmpty {
    let text = "realmctl fuzz target '\(target.name)': broken promise:\n" + problems.joined(separator: "\n") + "\n"
    FileHandle.standardError.write(Data(text.utf8))
    abort()
  }
  return 0
}

/// The `main` of every fuzz executable.
///
/// SwiftPM links an executable's `main` to the module's own entry point, so libFuzzer's `main`
/// cannot be used: this one calls `LLVMFuzzerRunDriver`, libFuzzer's entry point for programs
/// that have their own `main`, with the process's arguments (libFuzzer's flags and corpus
/// folders). Extra modes, handled before libFuzzer starts:
/// - `--write-seeds DIR`: writes the target's seed corpus (built from `Tests/Fixtures`) to DIR.
/// - `--describe`: prints the target's name and what its inputs are.
public enum FuzzDriver {
  public static func main(target name: String) -> Never {
    guard let target = FuzzTarget.named(name) else {
      FileHandle.standardError.write(Data("no fuzz target '\(name)'\n".utf8))
      exit(2)
    }
    let arguments = CommandLine.arguments
    if arguments.count == 3 && arguments[1] == "--write-seeds" {
      exit(writeSeeds(target, to: arguments[2]))
    }
    if arguments.count == 2 && arguments[1] == "--describe" {
      print("\(target.name): \(target.summary)")
      exit(0)
    }
    selectedTarget = target
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, fuzzTestOneInput))
  }

  /// Writes the seeds of `target` into `directory` (created if needed); returns the exit status.
  static func writeSeeds(_ target: FuzzTarget, to directory: String) -> Int32 {
    do {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let seeds = try target.seeds(.checkout)
      for seed in seeds {
        try Data(seed.bytes).write(to: URL(fileURLWithPath: directory).appendingPathComponent("seed-\(seed.name)"))
      }
      print("\(target.name): \(seeds.count) seeds in \(directory)")
      return 0
    } catch {
      FileHandle.standardError.write(Data("\(target.name): cannot write the seeds: \(error)\n".utf8))
      return 1
    }
  }
}

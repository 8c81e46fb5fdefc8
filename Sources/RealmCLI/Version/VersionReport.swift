#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import RealmJSON
import RealmModel

/// What `realmctl --version`, `--version --verbose` and `realmctl version [--json]` print: the
/// version, the build (commit and date, when `make` built it from git), the Swift compiler, the
/// platform and the file formats read and written, for bug reports and scripts.
struct VersionReport: Sendable, Equatable {
  /// ``ReleaseVersion/number``.
  var version: String
  /// The commit (`-dirty` when tracked files had changes), nil without a build stamp.
  var commit: String?
  /// The build's day (`YYYY-MM-DD`, UTC), nil without a build stamp.
  var buildDate: String?
  /// The compiler's version: the stamp's when there is one, else the `#if compiler` check's.
  var swiftVersion: String
  /// The operating system the binary was built for (`Linux`, `macOS`).
  var system: String
  /// The running kernel: `uname -s` and `uname -r` (`Linux 6.8.0`, `Darwin 24.1.0`).
  var kernel: String
  /// The machine's architecture (`uname -m`: `x86_64`, `arm64`, `aarch64`).
  var machine: String
  /// The architecture of the running binary (the slice of a universal binary).
  var binaryArchitecture: String
  /// Every file format read.
  var formatsRead: [Int]
  /// Every file format written.
  var formatsWritten: [Int]
  /// The format new files get.
  var defaultFormat: Int

  /// The report of this binary on this machine.
  static func current() -> VersionReport {
    let stamp = BuildInfo.stamp
    let name = Self.runningSystem()
    return VersionReport(
      version: ReleaseVersion.number, commit: stamp?.commit, buildDate: stamp?.date,
      swiftVersion: stamp.map(\.compiler).flatMap { $0.isEmpty ? nil : $0 } ?? Self.compilerVersion,
      system: Self.system, kernel: name.kernel, machine: name.machine,
      binaryArchitecture: Self.binaryArchitecture, formatsRead: ReadableFileFormats.all,
      formatsWritten: WritableFileFormat.allCases.map(\.rawValue), defaultFormat: WritableFileFormat.current.rawValue)
  }

  /// `--version`: `1.0.0 (commit 0123456789ab, built 2026-11-29)`, or without a build stamp
  /// `1.0.0 (commit unknown: not built by make from a git checkout)`.
  var line: String { "\(version) (\(buildText))\n" }

  /// `--version --verbose` and `realmctl version`: one fact a line.
  var verboseText: String {
    let rows: [(String, String)] = [
      ("version", version),
      ("build", buildText),
      ("swift", swiftVersion),
      ("platform", "\(system) \(binaryArchitecture) (kernel \(kernel), machine \(machine))"),
      ("file formats", "reads \(Self.ranges(formatsRead)); writes \(formatsWritten.map(String.init).joined(separator: ", ")) (new files: \(defaultFormat))"),
    ]
    let width = rows.map(\.0.count).max() ?? 0
    return "realmctl \(version)\n" + rows.dropFirst().map { name, value in
      name + ":" + String(repeating: " ", count: width - name.count + 2) + value + "\n"
    }.joined()
  }

  /// `realmctl version --json`: one JSON object on one line (`commit` and `buildDate` are null
  /// without a build stamp).
  var json: String {
    var w = JSONWriter(indent: 0, capacity: 512)
    w.beginObject()
    w.member("version", version)
    w.member("commit", commit)
    w.member("buildDate", buildDate)
    w.member("swift", swiftVersion)
    w.key("platform")
    w.beginObject()
    w.member("system", system)
    w.member("kernel", kernel)
    w.member("machine", machine)
    w.member("binaryArchitecture", binaryArchitecture)
    w.endObject()
    w.key("fileFormats")
    w.beginObject()
    w.key("read")
    w.beginArray()
    for f in formatsRead { w.value(Int64(f)) }
    w.endArray()
    w.key("written")
    w.beginArray()
    for f in formatsWritten { w.value(Int64(f)) }
    w.endArray()
    w.member("default", defaultFormat)
    w.endObject()
    w.endObject()
    return String(decoding: w.buffer, as: UTF8.self) + "\n"
  }

  private var buildText: String {
    guard let commit else { return "commit unknown: not built by make from a git checkout" }
    return "commit \(commit)" + (buildDate.map { ", built \($0)" } ?? "")
  }

  /// `2-11, 20-24` for `[2, 3, ..., 11, 20, ..., 24]`.
  static func ranges(_ formats: [Int]) -> String {
    var parts: [String] = []
    var start: Int?
    var previous = 0
    for f in formats.sorted() + [Int.min] {
      if let s = start, f != previous + 1 {
        parts.append(s == previous ? "\(s)" : "\(s)-\(previous)")
        start = nil
      }
      if start == nil { start = f }
      previous = f
    }
    return parts.joined(separator: ", ")
  }

  /// The Swift version the compiler reports to `#if compiler` (major and minor).
  static var compilerVersion: String {
    #if compiler(>=7.0)
      return "7.0 or later"
    #elseif compiler(>=6.4)
      return "6.4"
    #elseif compiler(>=6.3)
      return "6.3"
    #elseif compiler(>=6.2)
      return "6.2"
    #else
      return "6.1 or earlier"
    #endif
  }

  /// The operating system the binary was built for.
  static var system: String {
    #if os(macOS)
      return "macOS"
    #elseif os(Linux)
      return "Linux"
    #elseif os(iOS)
      return "iOS"
    #else
      return "other"
    #endif
  }

  /// The running slice's architecture.
  static var binaryArchitecture: String {
    #if arch(x86_64)
      return "x86_64"
    #elseif arch(arm64)
      return "arm64"
    #else
      return "other"
    #endif
  }

  /// `uname(3)`: the kernel's name and release, and the machine.
  static func runningSystem() -> (kernel: String, machine: String) {
    var name = utsname()
    guard uname(&name) == 0 else { return ("unknown", "unknown") }
    // The fields are fixed-size C strings: 65 bytes on Linux, 256 on Darwin.
    func text<T>(_ field: T) -> String {
      withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
    return (text(name.sysname) + " " + text(name.release), text(name.machine))
  }
}

import Foundation
import RealmTestSupport
import Testing

/// Every platform conditional of the sources and tests has both sides: a `#if` on Linux
/// (`canImport(Glibc)`, `canImport(Musl)`, `os(Linux)`) has a Darwin branch (`canImport(Darwin)`,
/// `os(macOS)`) or an `#else`, and the reverse; or the comment line right above it says why
/// the other platform needs none (naming it: "Darwin"/"macOS", or "Linux"). The code is built
/// on Linux only here, so a branch left out for macOS would otherwise be found by a Mac user.
/// docs/testing.md lists where the two platforms behave differently.
@Suite struct PlatformBranchTests {
  static func namesLinux(_ line: String) -> Bool {
    ["canImport(Glibc)", "canImport(Musl)", "os(Linux)"].contains { line.contains($0) }
  }

  static func namesDarwin(_ line: String) -> Bool {
    ["canImport(Darwin)", "os(macOS)"].contains { line.contains($0) }
  }

  /// A conditional lacking the other platform's side: `file:line: #if ...`.
  static func oneSidedConditionals(in text: String, file: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    var found: [String] = []
    for (index, line) in lines.enumerated() where line.hasPrefix("#if ") {
      let isLinux = namesLinux(line)
      let isDarwin = namesDarwin(line)
      guard isLinux != isDarwin else { continue }
      var depth = 0
      var conditions = [line]
      var hasElse = false
      for other in lines[(index + 1)...] {
        if other.hasPrefix("#if ") {
          depth += 1
        } else if other.hasPrefix("#endif") {
          if depth == 0 { break }
          depth -= 1
        } else if depth == 0 && other.hasPrefix("#elseif") {
          conditions.append(other)
        } else if depth == 0 && other.hasPrefix("#else") {
          hasElse = true
        }
      }
      let otherSide = isLinux ? namesDarwin : namesLinux
      if hasElse || conditions.contains(where: otherSide) { continue }
      let above = index > 0 ? lines[index - 1] : ""
      let named = isLinux ? ["Darwin", "macOS"] : ["Linux"]
      if above.hasPrefix("//") && named.contains(where: { above.contains($0) }) { continue }
      found.append("\(file):\(index + 1): \(line)")
    }
    return found
  }

  @Test func everyPlatformConditionalHasBothSides() throws {
    var found: [String] = []
    var scanned = 0
    for folder in ["Sources", "Tests"] {
      let root = Snapshot.packageRoot.appendingPathComponent(folder)
      let walker = try #require(FileManager.default.enumerator(atPath: root.path))
      // This file's examples of one-sided conditionals are strings, not code.
      for case let relative as String in walker
      where relative.hasSuffix(".swift") && !relative.hasSuffix("PlatformBranchTests.swift") {
        let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
        scanned += 1
        found += Self.oneSidedConditionals(in: text, file: "\(folder)/\(relative)")
      }
    }
    #expect(scanned > 300)
    #expect(found.isEmpty, "conditionals without a Darwin (or Linux) side:\n\(found.joined(separator: "\n"))")
  }

  @Test func theScanFindsOneSidedConditionalsAndAcceptsTheOthers() {
    let oneSided = """
      #if canImport(Glibc)
        import Glibc
      #endif
      #if os(macOS)
        let x = 1
      #endif
      """
    expectEqual(Self.oneSidedConditionals(in: oneSided, file: "f"), ["f:1: #if canImport(Glibc)", "f:4: #if os(macOS)"])
    let complete = """
      #if canImport(Glibc)
        import Glibc
      #elseif canImport(Darwin)
        import Darwin
      #endif
      #if os(Linux)
        #if canImport(Glibc)
          let y = 2
        #else
          let y = 3
        #endif
      #else
        let y = 4
      #endif
      // Darwin has no pipe2: the code below serves it.
      #if os(Linux)
        let z = 5
      #endif
      #if canImport(Glibc) || canImport(Darwin)
        let w = 6
      #endif
      """
    expectEqual(Self.oneSidedConditionals(in: complete, file: "f"), [])
  }
}

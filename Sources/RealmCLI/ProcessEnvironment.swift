#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
  import Foundation
#endif

/// Reads the process environment (on Linux without Foundation, from the C library's `environ`).
enum ProcessEnvironment {
  /// Every `NAME=value` pair of the environment.
  static func current() -> [String: String] {
    #if canImport(Darwin)
      // Darwin's module declares no `environ` for Swift: Foundation reads the same list.
      return ProcessInfo.processInfo.environment
    #else
      var result: [String: String] = [:]
      var entry = environ
      while let pointer = entry.pointee {
        let pair = String(cString: pointer)
        if let equals = pair.firstIndex(of: "=") {
          result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        entry += 1
      }
      return result
    #endif
  }
}

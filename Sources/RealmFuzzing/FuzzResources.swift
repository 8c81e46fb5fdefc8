import Foundation

/// The files of this checkout that fuzz targets start from: `Tests/Fixtures` (seeds and the
/// files plans and queries run against) and `Examples/`.
public struct FuzzResources: Sendable {
  /// The package root (the folder of the root `Package.swift`).
  public var packageRoot: URL

  /// Resources of the checkout this module was compiled from.
  public static let checkout = FuzzResources(
    packageRoot: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent())

  /// Creates resources rooted at `packageRoot`.
  public init(packageRoot: URL) { self.packageRoot = packageRoot }

  /// `Tests/Fixtures`.
  public var fixtures: URL { packageRoot.appendingPathComponent("Tests/Fixtures") }

  /// The file at `relativePath` below `Tests/Fixtures`.
  public func fixture(_ relativePath: String) -> URL { fixtures.appendingPathComponent(relativePath) }

  /// The bytes of `url`.
  public func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

  /// Every file below `directory` (relative paths, sorted) whose name satisfies `include`.
  public func files(below directory: URL, where include: (String) -> Bool) -> [String] {
    let found = (FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String]) ?? []
    return found.filter { include(($0 as NSString).lastPathComponent) }.sorted()
  }

  /// Every file of `Tests/Fixtures`, then of `Examples/`, whose name satisfies `include`: its
  /// URL and its path relative to that folder (sorted per folder).
  func seedFiles(where include: (String) -> Bool) -> [(url: URL, relative: String)] {
    [fixtures, packageRoot.appendingPathComponent("Examples")].flatMap { root in
      files(below: root, where: include).map { (root.appendingPathComponent($0), $0) }
    }
  }

  /// A seed named after its path below the package root (`/` becomes `_`).
  func seed(_ url: URL, bytes: [UInt8]) -> FuzzSeed {
    let root = packageRoot.standardizedFileURL.path + "/"
    var name = url.standardizedFileURL.path
    if name.hasPrefix(root) { name.removeFirst(root.count) }
    return FuzzSeed(name: name.replacingOccurrences(of: "/", with: "_"), bytes: bytes)
  }
}

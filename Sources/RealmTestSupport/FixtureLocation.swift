import Foundation

/// Where a test file lives: committed below `Tests/Fixtures`, or in the product owner's
/// `shared/fixtures/` beside the checkout (files from other repositories, which may not be
/// committed: `realm-core-samples/`, `legacy/realm-core/`).
///
/// Both trees use the same relative paths (`alltypes/before.realm`,
/// `realm-core-samples/test__test_upgrade_database_11/original.realm`), so a fixture list can
/// carry its location beside the path. Tests over `.shared` files are declared with
/// ``SharedFixtures/enabled`` so that they are reported skipped when `shared/` is absent.
public enum FixtureLocation: String, Sendable, Hashable, CaseIterable {
  /// `Tests/Fixtures` of this checkout: always present.
  case committed
  /// `shared/fixtures/`: present on CI, absent in a fresh clone.
  case shared

  /// Thrown when a `.shared` file is asked for while `shared/` is absent.
  public struct Absent: Error, CustomStringConvertible {
    /// The path that was asked for, below `shared/fixtures/`.
    public var path: String
    public var description: String {
      "'\(path)' is in ../shared/fixtures, which is not present (declare the test with SharedFixtures.enabled)"
    }
  }

  /// The root of this location, nil for `.shared` when `shared/` is absent.
  public var root: URL? {
    switch self {
    case .committed: Fixtures.root
    case .shared: SharedFixtures.root?.appendingPathComponent("fixtures")
    }
  }

  /// True when the location is present on this machine.
  public var isAvailable: Bool { root != nil }

  /// The file at `relativePath` below this location.
  public func url(_ relativePath: String) throws -> URL {
    guard let root else { throw Absent(path: relativePath) }
    return root.appendingPathComponent(relativePath)
  }

  /// The file system path of `relativePath` below this location.
  public func path(_ relativePath: String) throws -> String { try url(relativePath).path }

  /// The bytes of the file at `relativePath`.
  public func bytes(_ relativePath: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: try url(relativePath)))
  }

  /// True when `relativePath` exists (false when the location is absent).
  public func exists(_ relativePath: String) -> Bool {
    guard let root else { return false }
    return FileManager.default.fileExists(atPath: root.appendingPathComponent(relativePath).path)
  }

  /// The sorted names in directory `relativePath` (`""` for the root); empty when it or the
  /// location is absent.
  public func listing(_ relativePath: String) -> [String] {
    guard let root else { return [] }
    let dir = relativePath.isEmpty ? root : root.appendingPathComponent(relativePath)
    return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
  }

  /// Every file below directory `relativePath`, as paths relative to this location's root,
  /// sorted; empty when it or the location is absent.
  public func files(below relativePath: String = "") -> [String] {
    guard let root else { return [] }
    let dir = relativePath.isEmpty ? root : root.appendingPathComponent(relativePath)
    let found = (FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String]) ?? []
    let prefix = relativePath.isEmpty ? "" : relativePath + "/"
    return found.map { prefix + $0 }.filter { !isDirectory($0) }.sorted()
  }

  private func isDirectory(_ relativePath: String) -> Bool {
    var isDir: ObjCBool = false
    guard let root else { return false }
    let exists = FileManager.default.fileExists(
      atPath: root.appendingPathComponent(relativePath).path, isDirectory: &isDir)
    return exists && isDir.boolValue
  }
}

extension SharedFixtures {
  /// The folder of Realm Core's own test files below `shared/fixtures/` (never committed).
  public static let realmCoreSamples = "realm-core-samples"

  /// The path of file `file` of Realm Core sample `sample`
  /// (`realm-core-samples/<sample>/<file>`), relative to a ``FixtureLocation`` root.
  public static func realmCoreSample(_ sample: String, _ file: String = "original.realm") -> String {
    "\(realmCoreSamples)/\(sample)/\(file)"
  }
}

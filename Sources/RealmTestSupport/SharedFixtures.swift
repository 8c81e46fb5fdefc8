import Foundation
import Testing

/// Locates the product owner's `shared/` folder beside the checkout, for the test files that may
/// not be committed here (files from other repositories: `fixtures/realm-core-samples/`,
/// `fixtures/legacy/realm-core/`, `wild/`).
///
/// CI has the folder; a fresh clone may not. Tests that need it are declared with
/// ``enabled`` so that Swift Testing reports them as skipped, with the reason, when it is absent:
///
/// ```swift
/// @Test(SharedFixtures.enabled)
/// func wildFilesReadAsRealm() throws {
///   let root = try #require(SharedFixtures.root)
///   ...
/// }
/// ```
///
/// The environment variable `REALMCTL_SHARED` names another location (an empty value disables
/// the folder, to run the suite as a fresh clone would).
public enum SharedFixtures {
  /// The `shared/` folder, nil when it is absent.
  public static let root: URL? = {
    let fm = FileManager.default
    if let override = ProcessInfo.processInfo.environment["REALMCTL_SHARED"] {
      guard !override.isEmpty else { return nil }
      let url = URL(fileURLWithPath: override)
      return fm.fileExists(atPath: url.path) ? url : nil
    }
    // Sources/RealmTestSupport/SharedFixtures.swift -> package root -> its parent
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let candidates = [
      packageRoot.deletingLastPathComponent().appendingPathComponent("shared"),
      packageRoot.appendingPathComponent("../shared").standardizedFileURL,
    ]
    return candidates.first { fm.fileExists(atPath: $0.appendingPathComponent("fixtures").path) }
  }()

  /// True when the `shared/` folder is present.
  public static var isAvailable: Bool { root != nil }

  /// Why tests that need `shared/` are skipped when it is absent.
  public static let absentNote: Comment =
    "../shared is not present (files from other repositories are not committed here): skipped"

  /// The trait for tests that read `shared/`: skipped, with ``absentNote``, when it is absent.
  public static var enabled: ConditionTrait { .enabled(if: isAvailable, absentNote) }

  /// The file at `relativePath` below `shared/` (e.g. `wild/files/x.realm`), nil when
  /// `shared/` is absent.
  public static func url(_ relativePath: String) -> URL? {
    root?.appendingPathComponent(relativePath)
  }
}

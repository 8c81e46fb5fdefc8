import Foundation
import RealmTestSupport
import Testing

/// The command layer reads no bytes: no file of RealmCLI imports RealmFormat or names its
/// byte-level types (docs/Architecture.md, "Rules that hold across the layers"); RealmModel,
/// the vocabulary every layer shares, needs no other module; each module imports only the
/// modules below it; every target is compiled with MemberImportVisibility, so each file imports
/// what it uses; and no module re-exports another.
@Suite struct LayerTests {
  private static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  private static func swiftFiles(in directory: String) -> [URL] {
    let root = packageRoot.appendingPathComponent(directory)
    guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
    return walk.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
  }

  private static let byteLevelTypes = [
    "ByteReader", "ArrayNode", "NodeHeader", "Ref", "ClusterLeaf", "ClusterTree", "StringLeaf", "IntLeaf",
    "MixedLeaf", "NodeSink", "RealmFileBuilder", "GroupWriter", "FileHeader",
  ]

  @Test func theCommandLayerUsesNoByteLevelTypes() throws {
    let files = Self.swiftFiles(in: "Sources/RealmCLI")
    #expect(files.count > 20)
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for name in Self.byteLevelTypes {
        let uses = text.range(of: "\\b\(name)\\b", options: .regularExpression) != nil
        #expect(!uses, "\(file.lastPathComponent) uses \(name)")
      }
    }
  }

  /// An import of RealmFormat, of the whole module or of one declaration
  /// (`import struct RealmFormat.Group`).
  private static let importOfRealmFormat = #"^\s*(@\w+\s+)*import\s+(\w+\s+)?RealmFormat(\.|\s|$)"#

  @Test func theCommandLayerDoesNotImportRealmFormat() throws {
    let files = Self.swiftFiles(in: "Sources/RealmCLI")
    #expect(files.count > 20)
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      let imports = text.range(of: Self.importOfRealmFormat, options: .regularExpression) != nil
      #expect(!imports, "\(file.lastPathComponent) imports RealmFormat")
    }
    // The check itself finds an import.
    #expect("import RealmFormat\n".range(of: Self.importOfRealmFormat, options: .regularExpression) != nil)
    #expect("@testable import struct RealmFormat.Group".range(of: Self.importOfRealmFormat, options: .regularExpression) != nil)
    #expect("import RealmFormatting".range(of: Self.importOfRealmFormat, options: .regularExpression) == nil)
  }

  /// Without an import a file could still use another module's API through the members of
  /// types it gets from elsewhere (`file.group.tables` in the command layer); with
  /// MemberImportVisibility the compiler refuses that, so every file's imports name the modules
  /// it uses. The shared `strict` settings turn it on, and every target takes them (or
  /// `optimized`, which is `strict` and `-O` in debug builds).
  @Test func everyTargetSeesOnlyTheMembersOfWhatItImports() throws {
    let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let start = try #require(manifest.range(of: "let strict: [SwiftSetting] = ["))
    let end = try #require(manifest[start.upperBound...].range(of: "\n]"))
    #expect(manifest[start.upperBound..<end.lowerBound].contains(#".enableUpcomingFeature("MemberImportVisibility")"#))
    #expect(manifest.contains("let optimized: [SwiftSetting] = strict + ["))
    let targets = manifest.split(separator: #/\.(target|executableTarget|testTarget)\(/#, omittingEmptySubsequences: false).dropFirst()
    #expect(targets.count > 10)
    for target in targets {
      let name = target.firstMatch(of: #/name: ("\w+"|name)/#).map { String($0.output.1) } ?? "?"
      #expect(
        target.contains("swiftSettings: strict") || target.contains("swiftSettings: optimized"),
        "target \(name) does not take the strict settings")
    }
  }

  /// The project's modules each file of a module may import: those below it in
  /// docs/Architecture.md's drawing. Only the libraries below the command layer (and the test
  /// and fuzzing helpers) import RealmFormat.
  private static let allowedImports: [String: Set<String>] = [
    "RealmModel": [],
    "RealmCrypto": [],
    "LineEditor": [],
    "HTTPServer": [],
    "ProcessSpawn": [],
    "RealmFormat": ["RealmModel"],
    "RealmJSON": ["RealmModel", "RealmFormat"],
    "RealmQuery": ["RealmModel", "RealmFormat"],
    "RealmStorage": ["RealmModel", "RealmFormat", "RealmCrypto"],
    "RealmExport": ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery"],
    "RealmRewrite": ["RealmModel", "RealmFormat", "RealmStorage"],
    "RealmMigration": ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery", "RealmRewrite", "ProcessSpawn"],
    "RealmEdit": ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery", "RealmRewrite", "RealmMigration"],
    "RealmDiff": ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmQuery", "RealmExport", "RealmMigration"],
    "RealmStudio": [
      "RealmModel", "RealmStorage", "RealmJSON", "RealmQuery", "RealmExport", "RealmMigration", "RealmEdit", "RealmRewrite",
      "HTTPServer",
    ],
    "RealmCLI": [
      "RealmModel", "RealmStorage", "RealmJSON", "RealmQuery", "RealmExport", "RealmRewrite", "RealmMigration",
      "RealmEdit", "RealmDiff", "RealmCrypto", "LineEditor", "RealmStudio", "HTTPServer", "ProcessSpawn",
    ],
    "realmctl": ["RealmCLI"],
    "RealmFuzzing": ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "RealmMigration", "RealmCLI", "HTTPServer"],
    "RealmTestBytes": ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON"],
    "RealmTestSupport": ["RealmModel", "RealmFormat", "RealmStorage", "RealmJSON", "ProcessSpawn", "RealmTestBytes"],
  ]

  /// The module an import line names (`import X`, `@testable import X`, `import struct X.Y`).
  private static func importedModule(_ line: Substring) -> String? {
    line.firstMatch(of: #/^\s*(?:@\w+\s+)*import[ \t]+(?:(?:struct|class|enum|protocol|typealias|func|let|var)[ \t]+)?(\w+)/#)
      .map { String($0.output.1) }
  }

  @Test func eachModuleImportsOnlyTheModulesBelowIt() throws {
    let modules = try FileManager.default.contentsOfDirectory(
      atPath: Self.packageRoot.appendingPathComponent("Sources").path)
    expectEqual(Set(modules.filter { !$0.hasPrefix(".") }), Set(Self.allowedImports.keys), "a module missing from the table")
    for (module, allowed) in Self.allowedImports {
      let files = Self.swiftFiles(in: "Sources/\(module)")
      #expect(!files.isEmpty, "\(module)")
      for file in files {
        let text = try String(contentsOf: file, encoding: .utf8)
        for line in text.split(separator: "\n") where line.contains("import ") {
          guard let imported = Self.importedModule(line), Self.allowedImports[imported] != nil else { continue }
          #expect(allowed.contains(imported), "\(module)/\(file.lastPathComponent) imports \(imported)")
        }
      }
    }
    // The check itself reads every form of import.
    expectEqual(Self.importedModule("@testable import RealmFormat"), "RealmFormat")
    expectEqual(Self.importedModule("import struct RealmFormat.Group"), "RealmFormat")
    expectEqual(Self.importedModule("  import Glibc"), "Glibc")
    #expect(Self.importedModule("/// import RealmFormat") == nil)
  }

  @Test func theSharedVocabularyImportsNoOtherModule() throws {
    let files = Self.swiftFiles(in: "Sources/RealmModel")
    #expect(files.count > 10)
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for line in text.split(separator: "\n") where line.hasPrefix("import ") {
        expectEqual(line, "import Synchronization", "\(file.lastPathComponent): \(line)")
      }
    }
  }

  @Test func noModuleReExportsAnother() throws {
    for file in Self.swiftFiles(in: "Sources") {
      let text = try String(contentsOf: file, encoding: .utf8)
      #expect(!text.contains("@_exported"), "\(file.path)")
    }
  }
}

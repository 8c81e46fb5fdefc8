import Foundation
import Testing

/// The command layer reads no bytes: no file of RealmCLI imports RealmFormat or names its
/// byte-level types (docs/Architecture.md, "Rules that hold across the layers"); RealmModel,
/// the vocabulary every layer shares, needs no other module; and no module re-exports another.
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

  /// Without an import a file could still use RealmFormat's API through the members of other
  /// modules' types (`file.group.tables`); with MemberImportVisibility the compiler refuses that.
  @Test func theCommandLayerSeesOnlyTheMembersOfWhatItImports() throws {
    let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
    let target = try #require(manifest.range(of: #"name: "RealmCLI","#))
    let rest = manifest[target.upperBound...]
    let end = rest.range(of: ".executableTarget")?.lowerBound ?? rest.endIndex
    #expect(rest[..<end].contains(#".enableUpcomingFeature("MemberImportVisibility")"#))
  }

  @Test func theSharedVocabularyImportsNoOtherModule() throws {
    let files = Self.swiftFiles(in: "Sources/RealmModel")
    #expect(files.count > 10)
    for file in files {
      let text = try String(contentsOf: file, encoding: .utf8)
      for line in text.split(separator: "\n") where line.hasPrefix("import ") {
        #expect(line == "import Synchronization", "\(file.lastPathComponent): \(line)")
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

import Foundation
import Testing

/// The command layer reads no bytes: no file of RealmCLI names RealmFormat's byte-level types
/// (docs/Architecture.md, "Rules that hold across the layers"), and no module re-exports
/// another.
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

  @Test func noModuleReExportsAnother() throws {
    for file in Self.swiftFiles(in: "Sources") {
      let text = try String(contentsOf: file, encoding: .utf8)
      #expect(!text.contains("@_exported"), "\(file.path)")
    }
  }
}

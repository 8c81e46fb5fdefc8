import Foundation
import RealmTestSupport
import Testing

/// Each library product says what it holds in one sentence, the same in three places: the first
/// sentence of its comment in Package.swift, the abstract of its DocC catalog, and its row in the
/// README's table of libraries. Docs/Architecture.md has a row for every target.
@Suite struct ModuleDescriptionTests {
  private static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  private static func read(_ path: String) throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  /// The library products of the manifest, but for the fuzzing helper (not an API).
  static func libraryProducts(_ manifest: String) -> [String] {
    manifest.matches(of: #/\.library\(name: "(\w+)"/#).map { String($0.output.1) }.filter { $0 != "RealmFuzzing" }
  }

  /// Every target of the manifest.
  static func targets(_ manifest: String) -> [String] {
    manifest.matches(of: #/\.(?:target|executableTarget)\(\s*name: "(\w+)"/#).map { String($0.output.1) }
  }

  /// The first sentence of the `//` comment right above `.target(name: "M"`, its lines joined.
  static func manifestDescription(of module: String, in manifest: String) -> String? {
    let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false)
    guard let at = lines.firstIndex(where: { $0.contains(".target(") && $0.contains("name: \"\(module)\"") })
      ?? lines.indices.first(where: { i in
        lines[i].hasSuffix(".target(") && i + 1 < lines.count && lines[i + 1].contains("name: \"\(module)\"")
      })
    else { return nil }
    var comment: [String] = []
    var i = at - 1
    while i >= 0, let range = lines[i].range(of: "// ") {
      comment.insert(String(lines[i][range.upperBound...]), at: 0)
      i -= 1
    }
    return firstSentence(comment.joined(separator: " "))
  }

  /// The text up to the first period that ends a sentence (followed by a space or the end).
  static func firstSentence(_ text: String) -> String? {
    guard let end = text.firstMatch(of: #/\.(\s|$)/#) else { return text.isEmpty ? nil : text }
    return String(text[..<end.range.lowerBound]) + "."
  }

  /// The abstract of a DocC catalog's landing page: the paragraph after the title, lines joined.
  static func abstract(_ page: String) -> String {
    let lines = page.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
    return lines.drop(while: { $0.isEmpty }).prefix(while: { !$0.isEmpty }).joined(separator: " ")
  }

  @Test func theParsersReadWhatTheyShould() {
    let manifest = """
      products: [.library(name: "A", targets: ["A"]), .library(name: "RealmFuzzing", targets: ["F"])],
      // Things of A, with no I/O. More details.
      // Second line of details.
      .target(name: "A", swiftSettings: strict),
      // Things of B
      // that span two lines. Details.
      .target(
        name: "B", dependencies: ["A"]),
      """
    expectEqual(Self.libraryProducts(manifest), ["A"])
    expectEqual(Self.targets(manifest), ["A", "B"])
    expectEqual(Self.manifestDescription(of: "A", in: manifest), "Things of A, with no I/O.")
    expectEqual(Self.manifestDescription(of: "B", in: manifest), "Things of B that span two lines.")
    expectEqual(Self.abstract("# ``A``\n\nThings of A,\nwith no I/O.\n\n## Overview\n"), "Things of A, with no I/O.")
  }

  @Test func everyProductSaysTheSameInTheManifestTheCatalogAndTheReadme() throws {
    let manifest = try Self.read("Package.swift")
    let readme = try Self.read("README.md")
    let products = Self.libraryProducts(manifest)
    #expect(products.count >= 10)
    let readmeRows = readme.matches(of: #/\n\| `(\w+)` \| ([^|\n]+) \|[^\n]*\|/#)
      .map { (String($0.output.1), $0.output.2.trimmingCharacters(in: .whitespaces)) }
    expectEqual(Set(readmeRows.map(\.0)), Set(products), "the README's table of libraries lists other modules than the products")
    for module in products {
      let fromManifest = Self.manifestDescription(of: module, in: manifest)
      #expect(fromManifest != nil, "Package.swift has no comment above the target \(module)")
      let page = try Self.read("Sources/\(module)/\(module).docc/\(module).md")
      expectEqual(Self.abstract(page), fromManifest, "\(module): the DocC abstract is not the Package.swift description")
      expectEqual(readmeRows.first { $0.0 == module }?.1, fromManifest, "\(module): the README row is not the Package.swift description")
      let gettingStarted = Self.packageRoot.appendingPathComponent("Sources/\(module)/\(module).docc/GettingStarted.md")
      #expect(FileManager.default.fileExists(atPath: gettingStarted.path), "\(module) has no Getting Started article")
    }
  }

  @Test func architectureHasARowForEveryTarget() throws {
    let manifest = try Self.read("Package.swift")
    let architecture = try Self.read("docs/Architecture.md")
    let targets = Self.targets(manifest)
    #expect(targets.count >= 14)
    for target in targets {
      #expect(architecture.contains("\n| `\(target)` |"), "docs/Architecture.md has no row for \(target)")
    }
  }
}

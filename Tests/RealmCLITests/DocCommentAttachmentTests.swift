import Foundation
import RealmTestSupport
import Testing

/// A `///` comment documents the declaration right below it. With anything else in between (an
/// `import`, a blank line, a plain comment) Swift attaches it to that instead or to nothing, and
/// DocC and Quick Help show the declaration without a description. Every `///` block of the
/// package's sources and tests must end right above a declaration or an attribute.
@Suite struct DocCommentAttachmentTests {
  private static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The words that start a declaration (its modifiers first) or a conditional-compilation line
  /// around declarations: with an attribute (`@`), what may follow a doc comment.
  private static let declarationWords: Set<Substring> = [
    "#if", "#else", "#elseif", "#endif", "public", "package", "internal", "private", "fileprivate", "open", "final",
    "static", "class", "struct", "enum", "protocol", "extension", "func", "init", "deinit", "subscript", "var", "let",
    "case", "typealias", "associatedtype", "indirect", "override", "mutating", "nonmutating", "nonisolated",
    "convenience", "required", "lazy", "weak", "unowned", "dynamic", "actor", "consuming", "borrowing", "prefix",
    "postfix", "infix", "operator", "precedencegroup", "macro",
  ]

  /// True when `line` starts (after its indentation) with an attribute or a whole word of
  /// ``declarationWords``.
  static func startsDeclaration(_ line: Substring) -> Bool {
    let text = line.drop(while: \.isWhitespace)
    if text.first == "@" { return true }
    let word = text.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "#" }
    return declarationWords.contains(word)
  }

  /// The lines (1-based) right after a `///` block that are not a declaration or an attribute.
  static func detachedComments(in text: String) -> [(line: Int, text: String)] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var found: [(Int, String)] = []
    for (i, line) in lines.enumerated() where line.trimmingPrefix(while: \.isWhitespace).hasPrefix("///") {
      let next = i + 1 < lines.count ? lines[i + 1] : ""
      if next.trimmingPrefix(while: \.isWhitespace).hasPrefix("///") { continue }
      if !startsDeclaration(next) { found.append((i + 2, String(next))) }
    }
    return found
  }

  @Test func theCheckFindsDetachedComments() {
    expectEqual(Self.detachedComments(in: "/// A thing.\nimport RealmModel\npublic struct Thing {}\n").map(\.line), [2])
    expectEqual(Self.detachedComments(in: "/// A thing.\n\nstruct Thing {}\n").map(\.line), [2])
    expectEqual(Self.detachedComments(in: "/// A thing.\n// note\nstruct Thing {}\n").map(\.line), [2])
    #expect(Self.detachedComments(in: "import RealmModel\n\n/// A thing.\n///\n/// More.\npublic struct Thing {}\n").isEmpty)
    #expect(Self.detachedComments(in: "  /// A test.\n  @Test func a() {}\n  /// B.\n  static let b = 1\n").isEmpty)
    // A declaration word only as a whole word: `letter` and `#ifdef` start no declaration.
    expectEqual(Self.detachedComments(in: "/// A.\nletter = 1\n/// B.\n#ifdef X\n/// C.\n#if os(Linux)\n").map(\.line), [2, 4])
  }

  @Test func everyDocCommentIsAttachedToADeclaration() throws {
    var checked = 0
    for directory in ["Sources", "Tests"] {
      let root = Self.packageRoot.appendingPathComponent(directory)
      let walk = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
      for case let file as URL in walk where file.pathExtension == "swift" {
        let text = try String(contentsOf: file, encoding: .utf8)
        checked += 1
        for d in Self.detachedComments(in: text) {
          Issue.record("\(file.path.dropFirst(Self.packageRoot.path.count + 1)):\(d.line): a /// comment above '\(d.text.prefix(60))' documents nothing")
        }
      }
    }
    #expect(checked > 400)
  }
}

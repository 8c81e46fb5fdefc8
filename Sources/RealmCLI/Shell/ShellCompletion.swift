import Foundation
import LineEditor
import RealmModel

extension ShellSession {
  /// What Tab completes at `cursor` in `line`: dot commands and class names first, class
  /// names after `.schema` and `.count`, modes after `.mode`, `WHERE` after a class, and the
  /// class's property names in a query.
  func completion(line: String, cursor: Int) -> LineEditor.Completion {
    let characters = Array(line)
    let upToCursor = String(characters[..<min(cursor, characters.count)])
    var start = upToCursor.count
    while start > 0, !Self.separators.contains(characters[start - 1]) { start -= 1 }
    let before = upToCursor.prefix(start).split(whereSeparator: \.isWhitespace).map(String.init)
    let candidates: [String]
    switch before.first {
    case nil:
      candidates = Self.commands.map(\.name) + [".exit", ".tables"] + classNames + Self.statementKeywords
    case let first? where Self.expectsClass(first: first, before: before):
      candidates = classNames
    case ".schema" where before.count == 1, ".count" where before.count == 1:
      candidates = classNames
    case ".mode" where before.count == 1:
      candidates = DumpCommand.Format.allCases.map(\.rawValue)
    case ".import":
      // The file, then the class of its CSV rows.
      let words = before.dropFirst().filter { !$0.hasPrefix("--") }
      let word = String(characters[start..<min(cursor, characters.count)])
      if words.isEmpty {
        candidates = (word.hasPrefix("-") ? ["--upsert", "--csv", "--jsonl"] : []) + Self.importFiles(matching: word)
      } else {
        candidates = words.count == 1 ? classNames : []
      }
    case let first? where first.hasPrefix("."):
      let className = first == ".count" && before.count >= 2 ? before[1] : nil
      candidates = className.map { queryWords(className: $0, after: before.dropFirst(2)) } ?? []
    case let className?:
      candidates = queryWords(className: className, after: before.dropFirst())
    }
    return LineEditor.Completion(start: start, candidates: candidates.sorted())
  }

  /// The files `.import` reads (`.csv`, `.jsonl`, `.json`) and the directories, beside the
  /// start of a path `word` (`data/pe` lists `data/` and completes in it).
  static func importFiles(matching word: String) -> [String] {
    let slash = word.lastIndex(of: "/")
    let directory = slash.map { String(word[...$0]) } ?? ""
    let namePrefix = slash.map { String(word[word.index(after: $0)...]) } ?? word
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return [] }
    return names.compactMap { name -> String? in
      guard name.hasPrefix(namePrefix), !name.hasPrefix(".") || namePrefix.hasPrefix(".") else { return nil }
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: directory + name, isDirectory: &isDirectory)
      if isDirectory.boolValue { return directory + name + "/" }
      let lower = name.lowercased()
      return [".csv", ".jsonl", ".json"].contains(where: { lower.hasSuffix($0) }) ? directory + name : nil
    }
  }

  /// `WHERE` right after the class, then its property names and Realm Query Language words.
  private func queryWords(className: String, after words: ArraySlice<String>) -> [String] {
    guard let cls = schema.objectSchema(named: className) else { return [] }
    if words.isEmpty { return ["WHERE"] }
    return cls.properties.map(\.name) + ["AND", "OR", "NOT", "BEGINSWITH", "CONTAINS", "ENDSWITH", "LIKE", "IN"]
  }

  /// True after `UPDATE`, `INSERT INTO`, `UPSERT INTO` and `DELETE FROM`, where a class name comes.
  static func expectsClass(first: String, before: [String]) -> Bool {
    switch first.uppercased() {
    case "UPDATE": return before.count == 1
    case "INSERT", "UPSERT": return before.count == 2 && before[1].uppercased() == "INTO"
    case "DELETE": return before.count == 2 && before[1].uppercased() == "FROM"
    default: return false
    }
  }

  /// The editing statements' first words.
  static let statementKeywords = ["INSERT", "UPSERT", "UPDATE", "DELETE", "BEGIN", "COMMIT", "ROLLBACK"]

  /// Characters that end a word for completion.
  static let separators: Set<Character> = [" ", "\t", "(", ")", ",", "=", "<", ">", "!"]
}

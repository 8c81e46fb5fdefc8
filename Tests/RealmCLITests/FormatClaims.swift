import Foundation
import RealmFormat
import RealmModel
import RealmStorage

/// Finds statements about file formats and SDK releases in prose and output samples, and
/// checks each against the tables they must follow: `WritableFileFormat` (which formats
/// realmctl writes, and what a rewrite makes of the others), `FileFormatDescription` and
/// `SDKReleases` (which SDK releases write and open which format).
///
/// What it recognises (in a clause: text between `.`, `;` or a line of a table):
/// - a **single written format**: "every file realmctl writes is format 24", "the format
///   realmctl writes", "the encoders that write format 24" (always wrong: realmctl keeps a
///   file's format);
/// - a **list of written formats** ("20, 22, 23 or 24") where the clause speaks of writing or
///   keeping: every number must be writable, and a "keeps its format (…)" list must name all;
/// - the **formats without a writer** ("a format realmctl does not write (2 to 11)", "formats
///   2 to 11 have no writer"): every readable format that is not writable, 21 included;
/// - a **rewrite** ("formats 2 to 11 are written as 24", "a file of format 21 is written as
///   22", "(24 for formats 2 to 11)"): what `WritableFileFormat.rewriting(_:)` gives, or
///   `WritableFileFormat.current` where the clause is about `upgrade`;
/// - an **SDK release range** ("Realm JS 11.3.0-12.6.2", "Realm Swift 3-4", "Realm JS
///   10.0.0-10.3.0 and 10.4.1-10.4.2", "Realm Swift before 10.49"): each end must be an end of
///   a range of the table (a shortened version matches a release it begins: `11.3` matches
///   `11.3.0`), unless it is older than the SDK's first range (the table starts where the
///   changelogs state formats);
/// - **sample output** of `open`: the `File format:`, `Opens as is in:`, `Upgraded by:` and
///   `Refused by:` lines must be what `open` prints for some format.
enum FormatClaims {
  /// The problems in `text`, each naming the clause; `name` prefixes them.
  static func problems(in text: String, name: String) -> [String] {
    var problems: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      problems += outputLineProblems(String(line)).map { "\(name): \($0)" }
    }
    for clause in clauses(text) {
      var found: [String] = []
      found += singleFormatProblems(clause)
      found += writableListProblems(clause)
      found += unwrittenSetProblems(clause)
      found += rewriteProblems(clause)
      found += sdkRangeProblems(clause)
      problems += found.map { "\(name): \($0) in \"\(clause)\"" }
    }
    return problems
  }

  // MARK: - Clauses

  /// The text as clauses: Markdown markup removed, lines of a paragraph joined, split at `. `
  /// and `; `; each table row and each line of a code block is a clause of its own.
  static let clauseEnd = Pattern(#"[.;](\s|$)"#)

  static func clauses(_ text: String) -> [String] {
    var blocks: [String] = []
    var paragraph: [String] = []
    var inCode = false
    func flush() {
      if !paragraph.isEmpty { blocks.append(paragraph.joined(separator: " ")) }
      paragraph = []
    }
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("```") {
        flush()
        inCode.toggle()
        continue
      }
      if inCode || line.hasPrefix("|") {
        flush()
        blocks.append(line)
      } else if line.isEmpty {
        flush()
      } else {
        paragraph.append(line)
      }
    }
    flush()
    var clauses: [String] = []
    for block in blocks {
      let plain = block.replacingOccurrences(of: "`", with: "").replacingOccurrences(of: "**", with: "")
      for piece in clauseEnd.split(plain) {
        let clause = piece.trimmingCharacters(in: .whitespaces)
        if !clause.isEmpty { clauses.append(clause) }
      }
    }
    return clauses
  }

  // MARK: - Written formats

  static let writable = Set(WritableFileFormat.allCases.map(\.rawValue))
  static let readable = Set(FormatConstants.readableFileFormats.joined())

  /// "Every file realmctl writes is format 24" and its kin.
  static let singleFormat = [
    #"(?i)\bevery file (that )?realmctl writes (is|are|has|gets)\b"#,
    #"(?i)\bthe format realmctl writes\b"#,
    #"(?i)\b(realmctl|the encoders?|encoders|the writers?|every writing command|writing commands)( that)? (only )?writes? (only )?(file )?format \d+\b(?!\s*(,|or\b|and\b|to\b|-))"#,
    #"(?i)\bwrites? (every|each|all) files? (in|as) (file )?format \d+"#,
    #"(?i)\b(encodes?|encoders?)\b[^.;|]{0,40}\bfiles? in (file )?format \d+\b(?!\s*(,|or\b|and\b|to\b|-|unless\b|by default\b))"#,
  ].map(Pattern.init)

  static func singleFormatProblems(_ clause: String) -> [String] {
    singleFormat.compactMap { $0.isFound(in: clause) ? "claims a single written format" : nil }
  }

  /// "20, 22, 23 or 24" in a clause about writing: every number writable, all of them after
  /// "keeps its format".
  static let writingWords = Pattern(#"(?i)writ|keep|--file-format"#)
  static let formatList = Pattern(#"\b(2[0-9])((, 2[0-9])+,? (and|or) 2[0-9]|, 2[0-9](, 2[0-9])+)\b"#)
  static let keptFormats = Pattern(#"(?i)(keeps? (its|their|a file's|the file's) (own )?(file )?format|(the|each) file's own format) \(([^)]*[0-9][^)]*)\)"#)

  static func writableListProblems(_ clause: String) -> [String] {
    var problems: [String] = []
    if writingWords.isFound(in: clause) {
      for match in formatList.matches(in: clause) {
        let numbers = numbers(in: match[0]!)
        if !Set(numbers).isSubset(of: writable) {
          problems.append("names formats \(numbers) as written, but realmctl writes \(writable.sorted())")
        }
      }
    }
    for match in keptFormats.matches(in: clause) {
      let numbers = Set(numbers(in: match[0]!))
      if numbers != writable {
        problems.append("says a file keeps its format \(numbers.sorted()), but realmctl keeps \(writable.sorted())")
      }
    }
    return problems
  }

  /// "a format realmctl does not write (2 to 11)": must be every readable, unwritable format.
  static let unwritten = [
    #"(?i)formats? (that )?realmctl (does not|doesn't|cannot) write \(([^)]*)\)"#,
    #"(?i)formats? without a writer \(([^)]*)\)"#,
    #"(?i)formats? ([0-9]+ (to|-) [0-9]+) (have|has) no writer"#,
  ].map(Pattern.init)

  static func unwrittenSetProblems(_ clause: String) -> [String] {
    let expected = readable.subtracting(writable)
    var problems: [String] = []
    for pattern in unwritten {
      for match in pattern.matches(in: clause) {
        let named = formats(in: match[0]!)
        if named != expected {
          problems.append("names \(named.sorted()) as the formats without a writer, but they are \(expected.sorted())")
        }
      }
    }
    return problems
  }

  /// "formats 2 to 11 are written as 24", "a file of format 21 is written as 22", "(24 for
  /// formats 2 to 11)", "one of formats 2 to 11 as 24".
  static let upgradeWord = Pattern(#"(?i)upgrade"#)
  static let rewrites: [Pattern] = {
    let range = #"\(?([0-9]+)(?: (?:to|-) ([0-9]+))?\)?"#
    return [
      #"(?i)formats? "# + range + #"[^.;]{0,40}?\b(?:is |are )?(?:re)?written as (?:file )?(?:format )?([0-9]+)\b(?!,| or\b)"#,
      #"(?i)one of formats? "# + range + #" as ([0-9]+)\b(?!,| or\b)"#,
      #"(?i)\(([0-9]+) for formats? ([0-9]+)(?: (?:to|-) ([0-9]+))?\)"#,
    ].map(Pattern.init)
  }()

  static func rewriteProblems(_ clause: String) -> [String] {
    let upgrade = upgradeWord.isFound(in: clause)
    var problems: [String] = []
    for (i, pattern) in rewrites.enumerated() {
      for match in pattern.matches(in: clause) {
        let groups = match.dropFirst().map { $0.flatMap { Int($0) } }
        let (low, high, target): (Int?, Int?, Int?) = i == 2 ? (groups[1], groups[2], groups[0]) : (groups[0], groups[1], groups[2])
        guard let low, let target else { continue }
        for format in low...max(low, high ?? low) where readable.contains(format) {
          let kept = WritableFileFormat.rewriting(format).rawValue
          let ok = target == kept || (upgrade && target == WritableFileFormat.current.rawValue)
          if !ok {
            problems.append("says a file of format \(format) is written as \(target), but a rewrite writes \(kept)")
            break
          }
        }
      }
    }
    return problems
  }

  /// `2 to 11` → 2...11, `2 to 11 or 21` → 2...11 and 21, `20, 22` → 20 and 22.
  static let formatRange = Pattern(#"([0-9]+)(?: ?(?:to|-) ?([0-9]+))?"#)
  static let number = Pattern(#"[0-9]+"#)

  static func formats(in text: String) -> Set<Int> {
    var result = Set<Int>()
    for match in formatRange.matches(in: text) {
      guard let low = match[1].flatMap({ Int($0) }) else { continue }
      let high = match[2].flatMap { Int($0) } ?? low
      if high >= low { result.formUnion(low...high) }
    }
    return result
  }

  static func numbers(in text: String) -> [Int] {
    number.matches(in: text).compactMap { $0[0].flatMap { Int($0) } }
  }

  // MARK: - SDK releases

  static let sdkNames: [String: RealmSDK] = Dictionary(uniqueKeysWithValues: RealmSDK.allCases.map { ($0.name, $0) })

  /// Every "Realm X a-b" (and "and c-d" after it), and "Realm X before v".
  static let sdkRange: Pattern = {
    let names = RealmSDK.allCases.map { NSRegularExpression.escapedPattern(for: $0.name) }.joined(separator: "|")
    let version = #"[0-9]+(?:\.[0-9]+)*"#
    let span = "\(version)(?: ?(?:-|to) ?\(version))?"
    return Pattern("(\(names))(?: \\([A-Za-z]+\\))? (before )?(\(span)(?:(?:,? and |, )\(span))*)\\b")
  }()
  static let spanSeparator = Pattern(#",? and |, "#)
  static let rangeDash = Pattern(#" ?(?:-|to) ?"#)

  static func sdkRangeProblems(_ clause: String) -> [String] {
    var problems: [String] = []
    for match in sdkRange.matches(in: clause) {
      guard let name = match[1], let sdk = sdkNames[name], let spans = match[3] else { continue }
      if match[2] != nil {
        if let p = boundaryProblem(sdk, spans, first: true) { problems.append(p) }
        continue
      }
      for piece in spanSeparator.split(spans) {
        let ends = rangeDash.split(piece)
        guard ends.count == 2 else { continue }
        if let p = boundaryProblem(sdk, ends[0], first: true) ?? boundaryProblem(sdk, ends[1], first: false) {
          problems.append(p)
        }
      }
    }
    return problems
  }

  /// Nil when `version` begins (or ends) a range of `sdk`'s table, or precedes the table.
  static func boundaryProblem(_ sdk: RealmSDK, _ version: String, first: Bool) -> String? {
    let ranges = SDKReleases.ranges.filter { $0.sdk == sdk }
    guard let numbers = release(version), let oldest = ranges.first.flatMap({ release($0.first) }),
      !numbers.lexicographicallyPrecedes(oldest.prefix(numbers.count))
    else { return nil }
    let ends = ranges.compactMap { release(first ? $0.first : $0.last) }
    if ends.contains(where: { $0.starts(with: numbers) }) { return nil }
    let named = ranges.map { first ? $0.first : $0.last }.joined(separator: ", ")
    return "\(sdk.name) \(version) \(first ? "begins" : "ends") no range of the SDK table (\(first ? "first" : "last") releases: \(named))"
  }

  /// `[11, 3]` for `11.3`; nil for anything else.
  static func release(_ text: String) -> [Int]? {
    let parts = text.split(separator: ".").map { Int($0) }
    return !parts.isEmpty && parts.allSatisfy { $0 != nil } ? parts.map { $0! } : nil
  }

  // MARK: - Sample output

  /// What `open` prints on the rows about formats and SDK releases, for every format and kind of history.
  static let outputRows: [String: Set<String>] = {
    var rows: [String: Set<String>] = [:]
    for format in 0...30 {
      rows["File format", default: []].insert(FileFormatDescription.text(format))
      for history in [HistoryType.inRealm, .syncClient] {
        let openers = SDKReleases.openers(format: format, history: history)
        let suffix = history == .syncClient ? " (with Device Sync)" : ""
        rows["Opens as is in", default: []].insert(SDKReleases.text(openers.asIs) + suffix)
        rows["Upgraded by", default: []].insert(SDKReleases.text(openers.afterUpgrade) + suffix)
        rows["Refused by", default: []].insert(
          SDKReleases.text(openers.withoutDeviceSync) + " (no Device Sync: they open the local realm `realmctl unsync` writes)")
      }
    }
    return rows
  }()

  /// A sample `File format:`, `Opens as is in:`, `Upgraded by:` or `Refused by:` line that
  /// `open` would not print.
  static let outputLine = Pattern(#"^(File format|Opens as is in|Upgraded by|Refused by):\s+(.+)$"#)

  static func outputLineProblems(_ line: String) -> [String] {
    guard line.hasPrefix("File format:") || line.hasPrefix("Opens as is in:") || line.hasPrefix("Upgraded by:") || line.hasPrefix("Refused by:"),
      let match = outputLine.matches(in: line).first, let label = match[1], let value = match[2]
    else { return [] }
    if outputRows[label]?.contains(value) == true { return [] }
    return ["the sample line \"\(line)\" is not what open prints (the tables give another text)"]
  }
}

/// A regular expression compiled once (ICU syntax, through Foundation: the tests scan every
/// document, and Swift's `Regex` is too slow for that).
struct Pattern: @unchecked Sendable {
  let expression: NSRegularExpression

  init(_ pattern: String) {
    expression = try! NSRegularExpression(pattern: pattern)
  }

  /// Each match: the whole text, then every group (nil when it did not take part).
  func matches(in text: String) -> [[String?]] {
    let ns = text as NSString
    return expression.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
      (0..<match.numberOfRanges).map { i in
        let r = match.range(at: i)
        return r.location == NSNotFound ? nil : ns.substring(with: r)
      }
    }
  }

  func isFound(in text: String) -> Bool {
    expression.firstMatch(in: text, range: NSRange(location: 0, length: (text as NSString).length)) != nil
  }

  /// The pieces of `text` between matches.
  func split(_ text: String) -> [String] {
    let ns = text as NSString
    var pieces: [String] = []
    var start = 0
    for match in expression.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
      pieces.append(ns.substring(with: NSRange(location: start, length: match.range.location - start)))
      start = match.range.location + match.range.length
    }
    pieces.append(ns.substring(from: start))
    return pieces
  }
}

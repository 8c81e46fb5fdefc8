import RealmJSON
import RealmMigration
import RealmStorage
import RealmEdit

/// The shell's editing statements. Each runs the library's edit on the realm (committed on its
/// own) or, inside `BEGIN` ... `COMMIT`, on the transaction's working copy; a failing statement
/// inside a transaction rolls the whole transaction back, so the file stays as it was at `BEGIN`.
extension ShellSession {
  /// One statement, parsed.
  enum Statement: Equatable {
    case insert(json: String, className: String?, upsert: Bool)
    case update(className: String, assignments: [DataEditor.Assignment], query: String?)
    case delete(className: String, query: String?)
    case begin
    case commit
    case rollback

    /// The statement of `text`, nil when the line is not one (a query or a dot command).
    static func parse(_ text: String) throws -> Statement? {
      let words = text.split(maxSplits: 1, whereSeparator: \.isWhitespace)
      guard let first = words.first?.uppercased() else { return nil }
      let rest = words.count > 1 ? words[1].trimmingSpaces() : ""
      switch first {
      case "BEGIN":
        guard rest.isEmpty || rest.uppercased() == "TRANSACTION" else { return nil }
        return .begin
      case "COMMIT", "END":
        guard rest.isEmpty || rest.uppercased() == "TRANSACTION" else { return nil }
        return .commit
      case "ROLLBACK":
        guard rest.isEmpty || rest.uppercased() == "TRANSACTION" else { return nil }
        return .rollback
      case "INSERT", "UPSERT":
        var json = rest
        var className: String?
        if rest.uppercased().hasPrefix("INTO ") || rest.uppercased() == "INTO" {
          let parts = rest.dropFirst(4).trimmingSpaces().split(maxSplits: 1, whereSeparator: \.isWhitespace)
          guard let name = parts.first else { throw UsageError(.missingArgument, "\(first) INTO needs a class: \(first) INTO Person {...}") }
          className = String(name)
          json = parts.count > 1 ? parts[1].trimmingSpaces() : ""
        }
        guard json.hasPrefix("{") else {
          if className == nil && !rest.hasPrefix("{") && !rest.isEmpty && !rest.uppercased().hasPrefix("INTO") { return nil }
          throw UsageError(.missingArgument, "\(first) needs an object: \(first) {\"$class\":\"Person\",\"name\":\"Ada\"}")
        }
        return .insert(json: json, className: className, upsert: first == "UPSERT")
      case "UPDATE":
        let parts = rest.split(maxSplits: 1, whereSeparator: \.isWhitespace)
        // `Update` alone or `Update WHERE …` is a query of a class called Update.
        if parts.count < 2 || parts[0].uppercased() == "WHERE" { return nil }
        guard parts[1].uppercased().hasPrefix("SET") else {
          throw UsageError(.missingArgument, "expected SET after 'UPDATE \(parts[0])': UPDATE CLASS SET P = EXPR [WHERE QUERY]")
        }
        let body = parts[1].dropFirst(3)
        let (setText, query) = splitWhere(String(body))
        var assignments: [DataEditor.Assignment] = []
        for item in splitTopLevel(setText, on: ",") {
          guard let a = DataEditor.Assignment.parse(item) else {
            throw UsageError(.invalidValue, "'\(item.trimmingSpaces())' is not 'property = expression'")
          }
          assignments.append(a)
        }
        guard !assignments.isEmpty else { throw UsageError(.missingArgument, "SET needs 'property = expression'") }
        return .update(className: String(parts[0]), assignments: assignments, query: query)
      case "DELETE":
        guard rest.uppercased().hasPrefix("FROM") else {
          if rest.isEmpty || rest.uppercased().hasPrefix("WHERE") { return nil }
          throw UsageError(.missingArgument, "expected FROM: DELETE FROM CLASS [WHERE QUERY]")
        }
        let (target, query) = splitWhere(String(rest.dropFirst(4)))
        let className = target.trimmingSpaces()
        guard !className.isEmpty, !className.contains(where: \.isWhitespace) else {
          throw UsageError(.invalidValue, "expected a class after FROM: DELETE FROM CLASS [WHERE QUERY]")
        }
        return .delete(className: className, query: query)
      default:
        return nil
      }
    }

    /// `text` before and after the first ` WHERE ` outside quotes and brackets.
    static func splitWhere(_ text: String) -> (String, String?) {
      let characters = Array(text)
      var split: (String, String?) = (text, nil)
      forEachTopLevelIndex(characters) { i in
        guard characters[i].isWhitespace, i + 6 < characters.count,
          String(characters[(i + 1)...(i + 5)]).uppercased() == "WHERE", characters[i + 6].isWhitespace
        else { return true }
        split = (String(characters[..<i]), String(characters[(i + 7)...]).trimmingSpaces())
        return false
      }
      return split
    }

    /// `text` split at `separator` outside quotes and brackets.
    static func splitTopLevel(_ text: String, on separator: Character) -> [String] {
      let characters = Array(text)
      var parts: [String] = []
      var start = 0
      forEachTopLevelIndex(characters) { i in
        if characters[i] == separator {
          parts.append(String(characters[start..<i]))
          start = i + 1
        }
        return true
      }
      let last = String(characters[start...])
      if !last.trimmingSpaces().isEmpty { parts.append(last) }
      return parts
    }

    /// Calls `body` with each index of `characters` outside quotes (where `\` escapes the next
    /// character) and brackets, other than the quotes and brackets themselves, until it returns
    /// false.
    static func forEachTopLevelIndex(_ characters: [Character], _ body: (Int) -> Bool) {
      var depth = 0
      var quote: Character?
      var i = 0
      while i < characters.count {
        let c = characters[i]
        if let q = quote {
          if c == "\\" { i += 2; continue }
          if c == q { quote = nil }
        } else if c == "'" || c == "\"" {
          quote = c
        } else if c == "(" || c == "[" || c == "{" {
          depth += 1
        } else if c == ")" || c == "]" || c == "}" {
          depth -= 1
        } else if depth == 0, !body(i) {
          return
        }
        i += 1
      }
    }
  }

  /// The file the statements edit: the working copy inside a transaction, else the realm.
  var editPath: String { transaction?.workingPath ?? path }

  /// Runs one statement and prints its report.
  func run(_ statement: Statement) throws {
    switch statement {
    case .begin:
      guard transaction == nil else { throw UsageError(.unexpectedArgument, "a transaction is already open; COMMIT or ROLLBACK it first") }
      transaction = try EditTransaction.begin(path: path)
      try reopen()
      try output("BEGIN: the statements until COMMIT are applied all together or not at all")
    case .commit:
      guard let t = transaction else { throw UsageError(.unexpectedArgument, "no transaction is open (BEGIN starts one)") }
      transaction = nil
      do {
        try t.commit(faultInjection: faultInjection)
      } catch {
        try reopen()
        throw error
      }
      try reopen()
      try output("COMMIT: \(path) written")
    case .rollback:
      guard let t = transaction else { throw UsageError(.unexpectedArgument, "no transaction is open (BEGIN starts one)") }
      transaction = nil
      t.rollback()
      try reopen()
      try output("ROLLBACK: \(path) is as it was at BEGIN")
    default:
      do {
        let result = try edit(statement)
        var shown = result
        shown.path = path
        try output(EditReport.text(shown, verb: Self.verb(statement)) + (transaction == nil ? "" : "\n  (pending until COMMIT)"))
        try reopen()
      } catch {
        if let t = transaction {
          // All or nothing: the realm stays as it was at BEGIN.
          transaction = nil
          t.rollback()
          try? reopen()
          throw ShellTransactionRolledBack(underlying: error)
        }
        try? reopen()
        throw error
      }
    }
  }

  static func verb(_ statement: Statement) -> String {
    switch statement {
    case .insert: return "insert"
    case .update: return "update"
    case .delete: return "delete"
    default: return ""
    }
  }

  /// Runs an editing statement on ``editPath``.
  func edit(_ statement: Statement) throws -> EditResult {
    var options = MigrationOptions()
    options.encryptionKey = key
    options.faultInjection = faultInjection
    options.progress = progress
    let target = editPath
    switch statement {
    case .insert(let json, let className, let upsert):
      return try DataEditor.insert(path: target, mode: upsert ? .upsert : .insert, options: options) { schema in
        var value = try JSONParser.parse(json)
        if let className, case .object(var members) = value, value["$class"] == nil {
          members.insert(JSONMember("$class", .string(className)), at: 0)
          value = .object(members)
        }
        let decoder = CanonicalDecoder(schema: schema, missingProperties: .allow)
        return [InsertObject(object: try decoder.decodeObject(value, line: 1), source: "the object", number: 0)]
      }
    case .update(let className, let assignments, let query):
      return try DataEditor.update(path: target, className: className, assignments: assignments, filter: query, options: options)
    case .delete(let className, let query):
      return try DataEditor.delete(path: target, className: className, filter: query, cascadeEmbedded: true, options: options)
    default:
      throw RealmCtlError(.internalError, path: path, "not an editing statement")
    }
  }

  /// Opens the file queries read again (after a write, or when a transaction starts or ends).
  func reopen() throws {
    file = try RealmInput.openForSession(editPath, key: key)
    schema = try RealmInput.schema(of: file)
  }

  /// Ends the session: an open transaction is rolled back, with a warning.
  func end() throws {
    guard let t = transaction else { return }
    transaction = nil
    t.rollback()
    try context.warn("the open transaction was rolled back (no COMMIT); \(path) is as it was at BEGIN")
  }

  private func output(_ text: String) throws { try context.standardOutput.writeLine(text) }
}

/// A statement failed inside a transaction, which was rolled back.
struct ShellTransactionRolledBack: Error, CustomStringConvertible {
  var underlying: any Error
  var description: String {
    ((underlying as? UsageError)?.message ?? RealmCtl.errorMessage(for: underlying))
      + " (the transaction was rolled back: the file is as it was at BEGIN)"
  }
}

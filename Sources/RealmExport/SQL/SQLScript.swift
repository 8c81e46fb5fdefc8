import RealmModel

/// The fixed parts of the script: the header, `CREATE TABLE` and `CREATE INDEX` statements and
/// the end.
enum SQLScript {
  /// The opening comment, the pragma and `BEGIN TRANSACTION`.
  static func header(_ plan: SQLExportPlan, schema: Schema, isPartial: Bool) -> String {
    var lines = ["-- SQLite script written by realmctl dump --format sql. Load it into a new database:"]
    lines.append("--   sqlite3 new.db < this-file.sql")
    let version = schema.schemaVersion.map { "schema version \($0)" } ?? "no schema version"
    lines.append("-- Realm file: \(version), file format \(schema.fileFormat).")
    let embedded = plan.classes.values.filter(\.objectSchema.isEmbedded).map(\.objectSchema.name).sorted()
    var classes = "-- Classes: " + (plan.topLevelClasses.isEmpty ? "none" : plan.topLevelClasses.joined(separator: ", "))
    if !embedded.isEmpty { classes += "; embedded: " + embedded.joined(separator: ", ") }
    lines.append(SQLIdentifier.commentText(classes) + ".")
    if !plan.classesLeftOut.isEmpty {
      lines.append(
        SQLIdentifier.commentText(
          "-- Not exported: " + plan.classesLeftOut.joined(separator: ", ")
            + " (links to their objects keep the key, without a foreign key)."))
    }
    if isPartial {
      lines.append("-- Only some objects were exported (--limit, --offset or --where): links may name")
      lines.append("-- objects that are not here, which PRAGMA foreign_key_check lists.")
    }
    lines.append("-- Foreign keys are off while rows are inserted (classes can link to each other in")
    lines.append("-- cycles); they hold once the transaction is committed.")
    lines.append("PRAGMA foreign_keys = OFF;")
    lines.append("BEGIN TRANSACTION;")
    return lines.joined(separator: "\n") + "\n"
  }

  /// `CREATE TABLE` with a comment for the table and one per column.
  static func createTable(_ table: SQLExportPlan.Table) -> String {
    var lines: [String] = []
    let items = table.columns.count + table.constraints.count
    var itemIndex = 0
    for c in table.columns {
      var text = "  " + SQLIdentifier.quoted(c.name)
      if !c.declaredType.isEmpty { text += " " + c.declaredType }
      if c.isPrimaryKey { text += " PRIMARY KEY" }
      if c.notNull { text += " NOT NULL" }
      if let r = c.reference {
        text += " REFERENCES \(SQLIdentifier.quoted(r.table))(\(SQLIdentifier.quoted(r.column))) ON DELETE \(r.onDelete)"
      }
      itemIndex += 1
      if itemIndex < items { text += "," }
      if !c.comment.isEmpty { text += " -- " + SQLIdentifier.commentText(c.comment) }
      lines.append(text)
    }
    for constraint in table.constraints {
      itemIndex += 1
      lines.append("  " + constraint + (itemIndex < items ? "," : ""))
    }
    return "-- " + SQLIdentifier.commentText(table.comment) + "\n"
      + "CREATE TABLE \(SQLIdentifier.quoted(table.name)) (\n" + lines.joined(separator: "\n") + "\n);\n"
  }

  /// `CREATE [UNIQUE] INDEX`.
  static func createIndex(_ index: SQLExportPlan.Index) -> String {
    "CREATE \(index.unique ? "UNIQUE " : "")INDEX \(SQLIdentifier.quoted(index.name)) ON "
      + "\(SQLIdentifier.quoted(index.table))(\(SQLIdentifier.quoted(index.column)));\n"
  }

  /// The end of the script.
  static let footer = "COMMIT;\n"
}

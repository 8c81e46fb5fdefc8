import RealmModel

/// How a Realm schema becomes SQLite tables (docs/sql-export.md): one table per class, child
/// tables for lists, sets and dictionaries, a parent reference in the tables of embedded classes.
///
/// The plan is a pure function of the schema and of the classes exported, and it fixes every
/// name: tables are named as their classes (`Person`), child tables `Class.property`; columns as
/// their properties, with generated columns (`_key`, `_parent`, `m_type`, …) made unique around
/// them. Names are unique the way SQLite compares them (ASCII case ignored): a clash takes the
/// first free suffix `_2`, `_3`, …, and a name SQLite reserves (`sqlite_…`) gets a leading `_`.
public struct SQLExportPlan: Sendable {
  /// A foreign key of a column.
  public struct Reference: Sendable, Equatable {
    /// The referenced table.
    public var table: String
    /// The referenced column (always its `_key`).
    public var column: String
    /// `CASCADE` or `SET NULL`: what Realm does to this value when the target is deleted.
    public var onDelete: String
  }

  /// One column of a table.
  public struct Column: Sendable, Equatable {
    /// The column name.
    public var name: String
    /// The declared type (`INTEGER`, `REAL`, `TEXT`, `BLOB`), empty for mixed values (no
    /// affinity, so that each value keeps its own type).
    public var declaredType: String
    /// `INTEGER PRIMARY KEY` (the `_key` of class tables).
    public var isPrimaryKey = false
    /// `NOT NULL`.
    public var notNull = false
    /// The foreign key, if any.
    public var reference: Reference?
    /// What the column holds, in Realm's terms (written as a comment).
    public var comment: String
  }

  /// One table.
  public struct Table: Sendable, Equatable {
    /// The table name.
    public var name: String
    /// Its columns in order.
    public var columns: [Column]
    /// Table constraints, e.g. `PRIMARY KEY ("parent", "position")`.
    public var constraints: [String]
    /// What the table holds (written as a comment before it).
    public var comment: String
  }

  /// One `CREATE INDEX`, written after the rows.
  public struct Index: Sendable, Equatable {
    /// The index name.
    public var name: String
    /// The indexed table.
    public var table: String
    /// The indexed column.
    public var column: String
    /// `UNIQUE` (primary keys).
    public var unique: Bool
  }

  /// What fills one column of a class table.
  public enum ColumnSource: Sendable, Equatable {
    /// The object's key.
    case key
    /// The key of the owning object when it is of this class (embedded classes).
    case parent(ownerClass: String)
    /// The owner's property that holds the embedded object.
    case parentProperty
    /// A property's value (scalars, links, a single embedded object: its key).
    case value(property: Int)
    /// The value of a mixed property.
    case mixedValue(property: Int)
    /// The type of a mixed property's value.
    case mixedType(property: Int)
  }

  /// The layout of one class: its table and where each property goes.
  public struct ClassLayout: Sendable {
    /// The class.
    public var objectSchema: ObjectSchema
    /// Its table (index into ``tables``).
    public var table: Int
    /// What each column of the table holds, in column order.
    public var sources: [ColumnSource]
    /// The child table of each collection property (by property index), nil for the others.
    public var childTables: [Int?]
  }

  /// Tables in creation order: each class table followed by its child tables.
  public private(set) var tables: [Table] = []
  /// Indexes, created after the rows.
  public private(set) var indexes: [Index] = []
  /// The layout of every exported class (top-level and embedded), by class name.
  public private(set) var classes: [String: ClassLayout] = [:]
  /// The exported top-level classes, in dump order.
  public private(set) var topLevelClasses: [String] = []
  /// Classes that links point to but that are not exported (their keys are kept, without a
  /// foreign key).
  public private(set) var classesLeftOut: [String] = []

  /// Plans the export of `classNames` (top-level classes of `schema`; nil: all of them) and of
  /// the embedded classes their objects contain.
  public init(schema: Schema, classNames: [String]? = nil) {
    var builder = Builder(schema: schema, classNames: classNames)
    builder.build()
    tables = builder.tables
    indexes = builder.indexes
    classes = builder.layouts
    topLevelClasses = builder.topLevel
    classesLeftOut = builder.leftOut
  }

  /// The table name for a class or child table: `sqlite_…` is reserved by SQLite.
  static func tableName(_ desired: String) -> String {
    SQLNameSpace.folded(desired).hasPrefix("sqlite_") ? "_" + desired : desired
  }

  /// The column of a scalar, link or embedded value: `NOT NULL` for required values.
  static func valueColumn(name: String, _ p: Property) -> Column {
    let type: String
    switch p.type {
    case .bool, .int, .object: type = "INTEGER"
    case .float, .double: type = "REAL"
    case .string, .date, .decimal128, .objectId, .uuid: type = "TEXT"
    case .data: type = "BLOB"
    case .mixed: type = ""
    }
    let required = !p.isOptional && p.type != .object && p.type != .mixed
    return Column(name: name, declaredType: type, notNull: required, comment: "")
  }

  /// The Realm type of a property or element as the text schema writes it: `string?`,
  /// `Dog` (link), `int[]`, `string<>`, `double?{}`.
  static func realmType(_ p: Property) -> String {
    var t = p.type == .object ? (p.objectType ?? "object") : p.type.rawValue
    if p.isOptional && p.type != .object && p.type != .mixed { t += "?" }
    switch p.collection {
    case .single: break
    case .list: t += "[]"
    case .set: t += "<>"
    case .dictionary: t += "{}"
    }
    return t
  }
}

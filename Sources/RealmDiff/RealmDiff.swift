import RealmFormat
import RealmModel
import RealmStorage
import RealmExport

/// Compares two Realm files: their schema version, file format and schema (in Realm's words),
/// then their objects, class by class.
///
/// Objects are matched by primary key where the class has the same primary key in both files,
/// else by object key. Both files are read in key order side by side (a merge-join, one cluster
/// leaf of each file decoded at a time), so memory stays flat in the size of the files. For
/// classes matched by primary key the join runs in key order too: an object keeps its key from
/// one version of a file to the next (migrations, edits), so partners normally meet at the same
/// key. Objects whose keys do not line up (deleted and created again, files written
/// independently) wait in a table of primary key values until their partner turns up; memory
/// then grows with the number of such objects, every object of the class at worst.
///
/// Only properties present in both files are compared (properties added or removed are schema
/// changes). Embedded objects compare inside their parent; links compare by the target's
/// primary key (or key). See `DiffValues`.
public struct RealmDiff {
  /// What to compare.
  public struct Options: Sendable {
    /// Only this class, when given.
    public var className: String?
    /// A Realm Query Language filter of ``className``: objects matching it in either file are
    /// compared.
    public var query: String?
    /// Counts the objects read from both files (its total is set by ``RealmDiff/run(_:)``).
    public var progress: ProgressCounter?
    /// Creates options.
    public init(className: String? = nil, query: String? = nil, progress: ProgressCounter? = nil) {
      self.className = className
      self.query = query
      self.progress = progress
    }
  }

  /// Why a diff cannot run.
  public enum Failure: Error, Sendable, CustomStringConvertible {
    /// `--class` names a class neither file has.
    case unknownClass(String, suggestion: String?)
    /// The query does not compile against one of the files (which, the message).
    case badQuery(file: String, message: String)
    /// SORT, DISTINCT and LIMIT choose objects for output, not for a comparison.
    case queryHasDescriptors

    public var description: String {
      switch self {
      case .unknownClass(let name, let suggestion):
        return "class '\(name)' is in neither file" + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
      case .badQuery(let file, let message): return "in '\(file)': \(message)"
      case .queryHasDescriptors: return "SORT, DISTINCT and LIMIT cannot narrow a comparison; use a filter only"
      }
    }
  }

  /// The old file.
  public let old: RealmFile
  /// The new file.
  public let new: RealmFile
  /// The old file's schema.
  public let oldSchema: Schema
  /// The new file's schema.
  public let newSchema: Schema
  /// What to compare.
  public let options: Options
  let values: DiffValues

  /// Prepares the comparison of two open files.
  ///
  /// - Throws: ``Failure`` for an unknown class or a query that does not compile;
  ///   `StorageError` for a damaged file.
  public init(old: RealmFile, new: RealmFile, options: Options = Options()) throws {
    self.old = old
    self.new = new
    oldSchema = try Self.schema(of: old)
    newSchema = try Self.schema(of: new)
    self.options = options
    values = DiffValues(
      oldLinks: LinkResolver(group: old.group, schema: oldSchema, path: old.path),
      newLinks: LinkResolver(group: new.group, schema: newSchema, path: new.path))
    if let name = options.className, oldSchema.objectSchema(named: name) == nil, newSchema.objectSchema(named: name) == nil {
      let names = Set(oldSchema.classes.map(\.name) + newSchema.classes.map(\.name))
      throw Failure.unknownClass(name, suggestion: Suggestion.closest(to: name, among: Array(names)))
    }
  }

  /// The link resolvers, for writers that show links by primary key.
  public var links: LinkPrimaryKeys { LinkPrimaryKeys(old: values.oldLinks, new: values.newLinks) }

  /// Reports every difference to `report`, schema first, then objects class by class (classes
  /// in name order).
  public func run(_ report: (RealmDiffChange) throws -> Void) throws {
    if options.className == nil {
      if oldSchema.schemaVersion != newSchema.schemaVersion {
        try report(.schemaVersion(old: oldSchema.schemaVersion, new: newSchema.schemaVersion))
      }
      if oldSchema.fileFormat != newSchema.fileFormat {
        try report(.fileFormat(old: oldSchema.fileFormat, new: newSchema.fileFormat))
      }
    }
    for change in SchemaComparison.changes(from: oldSchema, to: newSchema, includingRemovedClasses: true)
    where options.className == nil || change.className == options.className {
      try report(.schema(change))
    }
    let names = Set((oldSchema.classes + newSchema.classes).filter { !$0.isEmbedded }.map(\.name))
      .filter { options.className == nil || options.className == $0 }
    if let progress = options.progress {
      // Saturating: a damaged file may claim absurd counts (the walks themselves are bounded).
      let counts = names.flatMap { [old.group.objectCount(ofClass: $0) ?? 0, new.group.objectCount(ofClass: $0) ?? 0] }
      progress.setTotal(counts.reduce(0) { $0.addingReportingOverflow($1).overflow ? .max : $0 + $1 })
    }
    for name in names.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    where options.className == nil || options.className == name {
      try compareClass(name, report)
    }
  }

  // MARK: - Classes

  private func compareClass(_ name: String, _ report: (RealmDiffChange) throws -> Void) throws {
    let oldClass = oldSchema.objectSchema(named: name).flatMap { $0.isEmbedded ? nil : $0 }
    let newClass = newSchema.objectSchema(named: name).flatMap { $0.isEmbedded ? nil : $0 }
    var join = try ClassJoin(
      oldClass: oldClass, newClass: newClass, old: old, new: new, oldSchema: oldSchema, newSchema: newSchema,
      query: options.className == name ? options.query : nil, values: values, progress: options.progress)
    try join.run(report)
  }

  private static func schema(of file: RealmFile) throws -> Schema {
    do {
      return try file.group.schema()
    } catch {
      throw StorageError.from(error, path: file.path)
    }
  }
}

import RealmFormat
import RealmModel
import RealmJSON

/// A migration plan: the target schema and version, and the steps that lead there.
///
/// The format is specified in `docs/migration-plans.md`; ``PlanDecoder`` builds it from JSON and
/// checks everything that can be checked without the file.
public struct MigrationPlan: Sendable {
  /// How schema differences are reconciled.
  public enum Mode: String, Sendable {
    /// A local realm's rules: properties missing from the schema are removed.
    case automatic
    /// A synced realm's rules: only additions are allowed.
    case additive
  }

  /// The version the file is migrated to.
  public var schemaVersion: Int64
  /// Reconciliation rules.
  public var mode: Mode
  /// Whether a type change without a step that writes the new values may drop the old values.
  public var allowDataLoss: Bool
  /// The complete target schema.
  public var classes: [PlanClass]
  /// Step groups in ascending version order.
  public var migrations: [VersionGroup]

  /// The target schema as a `Schema` (classes sorted by name, format 24).
  public var targetSchema: Schema {
    Schema(
      schemaVersion: schemaVersion, fileFormat: FormatConstants.currentFileFormat,
      classes: classes.map(\.objectSchema).sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
  }

  /// The class called `name` in the target schema.
  public func planClass(named name: String) -> PlanClass? { classes.first { $0.objectSchema.name == name } }

  /// The version groups that apply to a file at `fileVersion` (nil = unversioned: all of them).
  public func pendingGroups(fromVersion fileVersion: Int64?) -> [VersionGroup] {
    migrations.filter { g in (fileVersion.map { g.version > $0 } ?? true) && g.version <= schemaVersion }
  }
}

/// One class of the target schema, with the defaults given for its properties.
public struct PlanClass: Sendable {
  /// The class.
  public var objectSchema: ObjectSchema
  /// `default` values by property name, as written in the plan (decoded against the type later).
  public var defaults: [String: JSONValue]
  /// JSON path of the class in the plan.
  public var path: String
}

/// The steps that lead to one schema version.
public struct VersionGroup: Sendable {
  /// The version these steps lead to.
  public var version: Int64
  /// The steps, in order.
  public var steps: [PlanStep]
  /// JSON path of the group.
  public var path: String
}

/// One step with its place in the plan.
public struct PlanStep: Sendable {
  /// What the step does.
  public var operation: StepOperation
  /// JSON path of the step (`migrations[0].steps[2]`).
  public var path: String

  /// A step doing `operation`, named `path` in error messages.
  public init(operation: StepOperation, path: String) {
    self.operation = operation
    self.path = path
  }
}

/// A property assignment of a `transform` step.
public struct Assignment: Sendable {
  /// The property set.
  public var property: String
  /// The expression source.
  public var expression: String
  /// JSON path of the expression (`migrations[0].steps[1].set.fullName`).
  public var path: String

  /// An assignment of `expression` to `property`, named `path` in error messages.
  public init(property: String, expression: String, path: String) {
    self.property = property
    self.expression = expression
    self.path = path
  }
}

/// The operations a step can perform (see the plan spec's step table).
public enum StepOperation: Sendable {
  case renameProperty(className: String, from: String, to: String)
  case renameClass(from: String, to: String)
  case addProperty(className: String, property: Property, defaultValue: JSONValue?)
  case removeProperty(className: String, name: String)
  case transform(className: String, assignments: [Assignment], filter: String?)
  case deleteObjects(className: String, filter: String?)
  case deleteClass(className: String)
  case exec(className: String, command: [String], filter: String?)

  /// The `op` name as written in plans.
  public var opName: String {
    switch self {
    case .renameProperty: return "renameProperty"
    case .renameClass: return "renameClass"
    case .addProperty: return "addProperty"
    case .removeProperty: return "removeProperty"
    case .transform: return "transform"
    case .deleteObjects: return "deleteObjects"
    case .deleteClass: return "deleteClass"
    case .exec: return "exec"
    }
  }
}

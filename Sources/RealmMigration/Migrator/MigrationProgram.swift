import RealmModel

/// A migration compiled against one file: per class, the stages its objects go through.
///
/// Built by ``MigrationPlanner`` before anything is read or written; executed by the migrator.
public struct MigrationProgram: Sendable {
  /// The file's schema version before (nil = unversioned).
  public var fileVersion: Int64?
  /// The schema version after.
  public var targetVersion: Int64
  /// The schema of the migrated file.
  public var finalSchema: Schema
  /// Every class of the migrated file, in name order.
  public var classes: [ClassProgram]
  /// Classes of the file that are dropped (`deleteClass`).
  public var deletedClasses: [String]
  /// Old class name -> new class name, for every class renamed.
  public var classRenames: [String: String]
  /// True when the migration changes names and the version only: it can be committed in place.
  public var isMetadataOnly: Bool
  /// True when the file already is at the target and nothing changes.
  public var isNoOp: Bool

  /// The program of the class called `name` in the migrated file.
  public func classProgram(named name: String) -> ClassProgram? { classes.first { $0.finalSchema.name == name } }
}

/// What happens to one class.
public struct ClassProgram: Sendable {
  /// The class as written.
  public var finalSchema: ObjectSchema
  /// The class of the file its objects come from (nil for a new class).
  public var sourceClass: String?
  /// The class in the file at the start (its layout is the input of the first stage).
  public var sourceSchema: ObjectSchema?
  /// The stages, in order; the last one produces `finalSchema`'s layout.
  public var stages: [Stage]
  /// True when the class changes from top-level to embedded.
  public var becomesEmbedded: Bool
  /// True when the class changes from embedded to top-level.
  public var becomesTopLevel: Bool
  /// True when primary-key uniqueness must be checked (key added, moved or rewritten).
  public var checkPrimaryKey: Bool
  /// What the report says about the class.
  public var report: ClassReport

  /// True when no stage changes the data: objects can be copied as they are.
  public var isUnchanged: Bool {
    stages.allSatisfy { if case .rename = $0 { return true } else { return false } } && !becomesEmbedded && !becomesTopLevel
  }
}

/// One transformation of an object's values (arrays in the layout of the class at that point).
public enum Stage: Sendable {
  /// Names change only.
  case rename
  /// Inserts a value at an index (a property added).
  case insert(at: Int, value: RealmValue)
  /// Removes the value at an index (a property removed).
  case remove(at: Int)
  /// Evaluates expressions and assigns them; objects not matching `filter` keep their values
  /// (properties created by the step get `fallback` values for them).
  case transform(TransformStage)
  /// Deletes objects matching the filter (all objects when nil).
  case delete(filter: (any CompiledFilter)?)
  /// Streams objects through an external program.
  case exec(ExecStage)
  /// Builds the final layout.
  case reconcile([FinalSource])
}

/// A compiled `transform` step.
public struct TransformStage: Sendable {
  /// One assignment: the index it writes (in the layout after the step) and the expression.
  public struct Target: Sendable {
    /// Index in the layout after this step.
    public var index: Int
    /// The property written (type after the step).
    public var property: Property
    /// The compiled expression.
    public var expression: any CompiledValueExpression
    /// JSON path of the expression in the plan.
    public var path: String
  }
  /// Assignments in plan order.
  public var targets: [Target]
  /// Properties the step creates, appended to the layout, with their value for objects the
  /// filter skips.
  public var appended: [(Property, RealmValue)]
  /// Indexes whose type changes in this step, with the value non-matching objects get.
  public var retyped: [(Int, RealmValue)]
  /// Only objects matching this filter are transformed.
  public var filter: (any CompiledFilter)?
}

/// A compiled `exec` step.
public struct ExecStage: Sendable {
  /// Program and arguments.
  public var command: [String]
  /// The class layout the program sees and answers in.
  public var layout: ObjectSchema
  /// Only matching objects are sent.
  public var filter: (any CompiledFilter)?
  /// JSON path of the step.
  public var path: String
}

/// Where a property of the final layout gets its value.
public enum FinalSource: Sendable {
  /// From this index of the previous layout; nulls become `nullReplacement` when given.
  case copy(Int, nullReplacement: RealmValue?)
  /// A constant (new property).
  case constant(RealmValue)
}

/// What the report says about a class.
public struct ClassReport: Sendable, Equatable {
  /// Class name after the migration.
  public var name: String
  /// Name before, when renamed.
  public var renamedFrom: String?
  /// True for a class the migration creates.
  public var isNew = false
  /// Properties added.
  public var added: [String] = []
  /// Properties removed.
  public var removed: [String] = []
  /// Properties renamed (old -> new).
  public var renamed: [String] = []
  /// Properties written by transforms or exec.
  public var transformed: [String] = []
  /// Other changes in words (made optional, primary key moved, made embedded, ...).
  public var notes: [String] = []
  /// Objects before (filled in by the migrator).
  public var objectsBefore = 0
  /// Objects after.
  public var objectsAfter = 0
  /// Objects whose values changed.
  public var objectsTouched = 0

  /// Creates an empty report for a class.
  public init(name: String) { self.name = name }
}

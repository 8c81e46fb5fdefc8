import RealmFormat
import RealmModel

extension MigrationPlanner {
  /// Compiles data-only steps (`transform`, `deleteObjects`) against the file's schema, without
  /// the version rules of a plan: the schema and its version stay as they are. This is what
  /// `realmctl update` and `delete` run, so they share every rule of a plan's steps.
  public func program(forDataSteps steps: [PlanStep], fileSchema: Schema) throws -> MigrationProgram {
    for step in steps {
      switch step.operation {
      case .transform, .deleteObjects: continue
      default: throw MigrationError(.unsupported, "'\(step.operation.opName)' changes the schema; only data steps run here")
      }
    }
    var classes: [String: Working] = [:]
    for c in fileSchema.classes {
      classes[c.name] = Working(schema: c, source: c.name, sourceSchema: c, report: ClassReport(name: c.name))
    }
    let plan = MigrationPlan(
      schemaVersion: fileSchema.schemaVersion ?? 0, mode: .automatic, allowDataLoss: false,
      classes: fileSchema.classes.map { PlanClass(objectSchema: $0, defaults: [:], path: "schema.\($0.name)") },
      migrations: [])
    var deleted: [String] = []
    var renames: [String: String] = [:]
    var onlyMetadata = true
    for step in steps {
      try apply(
        step, plan: plan, target: fileSchema, classes: &classes, deleted: &deleted, renames: &renames,
        onlyMetadata: &onlyMetadata)
    }
    var programs: [ClassProgram] = []
    for w in classes.values {
      // A transform that writes the primary key must keep it unique.
      let writesKey = w.schema.primaryKey.map { w.written.contains($0) } ?? false
      programs.append(
        program(of: w, final: w.schema, extraStages: [], becomesEmbedded: false, becomesTopLevel: false, checkPK: writesKey))
    }
    programs.sort { $0.finalSchema.name.utf8.lexicographicallyPrecedes($1.finalSchema.name.utf8) }
    let finalSchema = Schema(
      schemaVersion: fileSchema.schemaVersion, fileFormat: FormatConstants.currentFileFormat,
      classes: programs.map(\.finalSchema))
    // An unversioned file stays unversioned: a target "version" the file cannot be at keeps the
    // in-place paths from writing one (they then leave the work to the rewrite, which writes
    // the schema's nil version).
    return MigrationProgram(
      fileVersion: fileSchema.schemaVersion, targetVersion: fileSchema.schemaVersion ?? -1, finalSchema: finalSchema,
      classes: programs, deletedClasses: [], classRenames: [:], isMetadataOnly: false, isNoOp: steps.isEmpty)
  }
}

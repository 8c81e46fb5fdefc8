import RealmFormat
import RealmModel
import RealmJSON
import RealmQuery

/// Compiles a ``MigrationPlan`` against a file's schema into a ``MigrationProgram``.
///
/// Applies the version rules, replays every pending step on a working copy of the schema
/// (so that each step is checked against the schema as earlier steps left it), then reconciles
/// the result with the plan's target schema. Every error is raised here, before any object is
/// read, with the JSON path of the step or property at fault.
public struct MigrationPlanner {
  /// The compiler used for `transform` expressions and `where` filters.
  public var expressions: any ExpressionCompiling
  /// Decodes a plan's `default` value for a property.
  public var decodeDefault: (JSONValue, Property, String) throws -> RealmValue

  /// Creates a planner.
  public init(
    expressions: any ExpressionCompiling,
    decodeDefault: @escaping (JSONValue, Property, String) throws -> RealmValue
  ) {
    self.expressions = expressions
    self.decodeDefault = decodeDefault
  }

  /// One class of the working schema while steps are replayed.
  struct Working {
    var schema: ObjectSchema
    var source: String?
    var sourceSchema: ObjectSchema?
    var stages: [Stage] = []
    var written: Set<String> = []
    var report: ClassReport
    var dataChanged = false
    /// Names earlier steps renamed or removed (`FormerName`).
    var formerNames: [String: FormerName] = [:]
  }

  /// Builds the program, or throws the first error.
  public func program(for plan: MigrationPlan, fileSchema: Schema) throws -> MigrationProgram {
    let fileVersion = fileSchema.schemaVersion
    let target = plan.targetSchema
    if let v = fileVersion, plan.schemaVersion < v {
      throw MigrationError(.versionLower, "Provided schema version \(plan.schemaVersion) is less than last set version \(v).")
    }
    var classes: [String: Working] = [:]
    for c in fileSchema.classes {
      classes[c.name] = Working(schema: c, source: c.name, sourceSchema: c, report: ClassReport(name: c.name))
    }
    var deleted: [String] = []
    var renames: [String: String] = [:]
    var onlyMetadata = true

    if let v = fileVersion, v == plan.schemaVersion {
      // Same version: only changes that need no migration may be applied (Realm's rule).
      let changes = SchemaComparison.changes(from: fileSchema, to: target)
      if let error = SchemaComparison.sameVersionError(changes) { throw error }
      if changes.isEmpty {
        return MigrationProgram(
          fileVersion: fileVersion, targetVersion: plan.schemaVersion, finalSchema: fileSchema,
          classes: try reconcileAll(&classes, plan: plan, target: target, onlyMetadata: &onlyMetadata),
          deletedClasses: [], classRenames: [:], isMetadataOnly: true, isNoOp: true)
      }
    } else {
      for group in plan.pendingGroups(fromVersion: fileVersion) {
        for step in group.steps {
          try apply(step, plan: plan, target: target, classes: &classes, deleted: &deleted, renames: &renames, onlyMetadata: &onlyMetadata)
        }
      }
    }
    let programs = try reconcileAll(&classes, plan: plan, target: target, onlyMetadata: &onlyMetadata)
    let finalSchema = Schema(
      schemaVersion: plan.schemaVersion, fileFormat: FormatConstants.currentFileFormat,
      classes: programs.map(\.finalSchema))
    return MigrationProgram(
      fileVersion: fileVersion, targetVersion: plan.schemaVersion, finalSchema: finalSchema, classes: programs,
      deletedClasses: deleted, classRenames: renames, isMetadataOnly: onlyMetadata && deleted.isEmpty, isNoOp: false)
  }

  // MARK: - Steps

  func lookup(_ name: String, _ classes: [String: Working], path: String) throws -> Working {
    guard let w = classes[name] else {
      var message = "class '\(name)' does not exist"
      if let s = Suggestion.closest(to: name, among: Array(classes.keys)) { message += " (did you mean '\(s)'?)" }
      throw MigrationError.plan(path, message)
    }
    return w
  }

  func propertyIndex(_ name: String, in w: Working, path: String) throws -> Int {
    guard let i = w.schema.properties.firstIndex(where: { $0.name == name }) else {
      if let note = Self.formerNameNote(name, in: w, prefix: "") { throw MigrationError.plan(path, note) }
      var message = "'\(w.schema.name)' has no property '\(name)'"
      if let s = Suggestion.closest(to: name, among: w.schema.properties.map(\.name)) { message += " (did you mean '\(s)'?)" }
      throw MigrationError.plan(path, message)
    }
    return i
  }

  func workingSchema(_ classes: [String: Working]) -> Schema {
    Schema(schemaVersion: nil, fileFormat: FormatConstants.currentFileFormat, classes: classes.values.map(\.schema))
  }

  func apply(
    _ step: PlanStep, plan: MigrationPlan, target: Schema, classes: inout [String: Working],
    deleted: inout [String], renames: inout [String: String], onlyMetadata: inout Bool
  ) throws {
    let path = step.path
    if plan.mode == .additive {
      switch step.operation {
      case .transform, .addProperty: break
      default:
        throw MigrationError.plan("\(path).op", "'\(step.operation.opName)' is not allowed in additive mode (only 'transform' and 'addProperty' are)")
      }
    }
    switch step.operation {
    case .renameProperty(let className, let from, let to):
      var w = try lookup(className, classes, path: "\(path).class")
      let i = try propertyIndex(from, in: w, path: "\(path).from")
      if w.schema.property(named: to) != nil {
        throw MigrationError.plan("\(path).to", "'\(className)' already has a property '\(to)'")
      }
      w.schema.properties[i].name = to
      if w.schema.primaryKey == from { w.schema.primaryKey = to }
      if w.written.remove(from) != nil { w.written.insert(to) }
      Self.noteRename(&w, from: from, to: to, step: path)
      w.report.renamed.append("\(from) -> \(to)")
      w.stages.append(.rename)
      classes[className] = w

    case .renameClass(let from, let to):
      var w = try lookup(from, classes, path: "\(path).from")
      guard classes[to] == nil else { throw MigrationError.plan("\(path).to", "class '\(to)' already exists") }
      guard !to.isEmpty, to.utf8.count <= 57 else { throw MigrationError.plan("\(path).to", "class names must have 1 to 57 bytes") }
      w.schema.name = to
      w.report.renamedFrom = w.report.renamedFrom ?? from
      w.report.name = to
      w.stages.append(.rename)
      classes[from] = nil
      classes[to] = w
      if let src = w.source { renames[src] = to }
      for key in Array(classes.keys) {
        guard var other = classes[key] else { continue }
        for j in other.schema.properties.indices where other.schema.properties[j].objectType == from {
          other.schema.properties[j].objectType = to
        }
        classes[key] = other
      }

    case .addProperty(let className, let property, let defaultValue):
      onlyMetadata = false
      var w = try lookup(className, classes, path: "\(path).class")
      if w.schema.property(named: property.name) != nil {
        throw MigrationError.plan("\(path).name", "'\(className)' already has a property '\(property.name)'")
      }
      if let t = property.objectType, classes[t] == nil {
        throw MigrationError.plan("\(path).type", "class '\(t)' does not exist")
      }
      let value = try defaultValue.map { try decodeDefault($0, property, "\(path).default") } ?? RealmValue.zero(for: property)
      w.stages.append(.insert(at: w.schema.properties.count, value: value))
      w.schema.properties.append(property)
      w.formerNames[property.name] = nil
      w.report.added.append(property.name)
      w.dataChanged = true
      classes[className] = w

    case .removeProperty(let className, let name):
      onlyMetadata = false
      var w = try lookup(className, classes, path: "\(path).class")
      let i = try propertyIndex(name, in: w, path: "\(path).name")
      if w.schema.primaryKey == name { w.schema.primaryKey = nil }
      w.schema.properties.remove(at: i)
      w.stages.append(.remove(at: i))
      Self.noteRemoval(&w, name: name, step: path)
      w.written.remove(name)
      w.report.removed.append(name)
      w.dataChanged = true
      classes[className] = w

    case .transform(let className, let assignments, let filterSource):
      onlyMetadata = false
      var w = try lookup(className, classes, path: "\(path).class")
      let schemaNow = workingSchema(classes)
      let filter = try filterSource.map { src in
        try compileFilter(src, w, schemaNow, path: "\(path).where")
      }
      let before = w.schema
      var after = w.schema
      var targets: [TransformStage.Target] = []
      var appended: [(Property, RealmValue)] = []
      var retyped: [(Int, RealmValue)] = []
      var newProps: [Property] = []
      let targetClass = target.objectSchema(named: className)
      for a in assignments {
        let expr: any CompiledValueExpression
        do {
          expr = try expressions.compileValue(a.expression, in: before, schema: schemaNow, newProperties: newProps)
        } catch let e as MigrationError {
          throw e
        } catch let e as ExpressionError {
          throw MigrationError.plan("\(a.path), column \(e.column)", Self.explained(e, classes, prefix: "old."))
        } catch {
          throw MigrationError.plan(a.path, "\(error)")
        }
        var prop: Property
        if let declared = targetClass?.property(named: a.property) {
          prop = declared
        } else if let existing = after.property(named: a.property) {
          prop = existing
        } else if let inferred = expr.resultProperty {
          prop = inferred
          prop.name = a.property
        } else {
          throw MigrationError.plan(a.path, "cannot tell the type of the new property '\(a.property)'; declare it in 'schema'")
        }
        let index: Int
        if let i = after.properties.firstIndex(where: { $0.name == a.property }) {
          index = i
          let old = after.properties[i]
          if old.type != prop.type || old.collection != prop.collection || old.objectType != prop.objectType {
            after.properties[i] = Property(
              name: old.name, type: prop.type, collection: prop.collection, objectType: prop.objectType,
              isOptional: prop.isOptional, isIndexed: old.isIndexed,
              isFullTextIndexed: old.isFullTextIndexed && prop.type == .string && prop.collection == .single)
            retyped.append((i, RealmValue.zero(for: after.properties[i])))
            w.report.notes.append("'\(a.property)' changed from '\(SchemaChange.typeString(old))' to '\(SchemaChange.typeString(prop))'")
          }
        } else {
          index = after.properties.count
          after.properties.append(prop)
          w.formerNames[a.property] = nil
          appended.append((prop, RealmValue.zero(for: prop)))
          w.report.added.append(a.property)
        }
        if let type = expr.resultType, !type.mayFit(after.properties[index]) {
          throw MigrationError.plan(a.path, Self.neverFits(type, after.properties[index], expression: a.expression))
        }
        newProps.append(after.properties[index])
        targets.append(TransformStage.Target(index: index, property: after.properties[index], expression: expr, path: a.path))
        w.written.insert(a.property)
        if !w.report.transformed.contains(a.property) { w.report.transformed.append(a.property) }
      }
      w.schema = after
      w.stages.append(.transform(TransformStage(targets: targets, appended: appended, retyped: retyped, filter: filter)))
      w.dataChanged = true
      classes[className] = w

    case .deleteObjects(let className, let filterSource):
      onlyMetadata = false
      var w = try lookup(className, classes, path: "\(path).class")
      let filter = try filterSource.map { try compileFilter($0, w, workingSchema(classes), path: "\(path).where") }
      w.stages.append(.delete(filter: filter))
      w.report.notes.append(filterSource.map { "objects deleted where \($0)" } ?? "all objects deleted")
      w.dataChanged = true
      classes[className] = w

    case .deleteClass(let className):
      onlyMetadata = false
      let w = try lookup(className, classes, path: "\(path).class")
      for other in classes.values where other.schema.name != className {
        if let p = other.schema.properties.first(where: { $0.objectType == className }) {
          throw MigrationError.plan(
            "\(path).class", "cannot delete class '\(className)': '\(other.schema.name).\(p.name)' links to it (remove that property first)")
        }
      }
      classes[className] = nil
      if let src = w.source { deleted.append(src) }

    case .exec(let className, let command, let filterSource):
      onlyMetadata = false
      var w = try lookup(className, classes, path: "\(path).class")
      let filter = try filterSource.map { try compileFilter($0, w, workingSchema(classes), path: "\(path).where") }
      w.stages.append(.exec(ExecStage(command: command, layout: w.schema, filter: filter, path: path)))
      for p in w.schema.properties { w.written.insert(p.name) }
      w.report.notes.append("objects passed through '\(command.joined(separator: " "))'")
      w.dataChanged = true
      classes[className] = w
    }
  }

  /// Why an expression of `type` can never be stored in `property`, with the conversion that
  /// would make it fit where there is one.
  static func neverFits(_ type: ExpressionType, _ property: Property, expression: String) -> String {
    var message = "'\(property.name)' holds values of type '\(PropertyNotation.notation(of: property))', "
    if case .null = type.kind {
      return message + "which is required, but the expression is null"
    }
    message += "but the expression gives values of type '\(type)'"
    // The expression language's conversions (an int also fits a decimal128).
    let conversions: [PropertyType: String] = [
      .int: "int", .double: "double", .float: "double", .decimal128: "int", .string: "string", .bool: "bool",
      .date: "date",
    ]
    if property.collection == .single, type.elementType == nil, type.kind != .mixed,
      let function = conversions[property.type]
    {
      message += "; convert them: \(function)(\(expression))"
    }
    return message
  }

  /// Compiles a `where` query for the class as it is at this step. A query with SORT,
  /// DISTINCT or LIMIT selects among the objects of the file, so it must come before any other
  /// change to the class's objects.
  func compileFilter(_ source: String, _ w: Working, _ s: Schema, path: String) throws -> any CompiledFilter {
    let filter: any CompiledFilter
    do {
      filter = try expressions.compileFilter(source, in: w.schema, schema: s)
    } catch let e as MigrationError {
      throw e
    } catch let e as ExpressionError {
      throw MigrationError.plan("\(path), column \(e.column)", Self.explained(e, [w.schema.name: w], prefix: ""))
    } catch {
      throw MigrationError.plan(path, "\(error)")
    }
    if filter.selectsFromFile && w.dataChanged {
      throw MigrationError.plan(
        path,
        "SORT, DISTINCT and LIMIT select among the objects of '\(w.schema.name)' as they are in the file, but an earlier step of the plan changes them; put this step first")
    }
    return filter
  }
}

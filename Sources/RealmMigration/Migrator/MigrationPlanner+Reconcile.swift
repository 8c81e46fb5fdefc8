import RealmModel
extension MigrationPlanner {
  /// Reconciles every class of the working schema with the target and returns the programs.
  func reconcileAll(
    _ classes: inout [String: Working], plan: MigrationPlan, target: Schema, onlyMetadata: inout Bool
  ) throws -> [ClassProgram] {
    var programs: [ClassProgram] = []
    var additiveViolations: [String] = []
    for t in target.classes {
      let planClass = plan.planClass(named: t.name)
      let w = classes[t.name] ?? Working(
        schema: ObjectSchema(name: t.name, isEmbedded: t.isEmbedded, properties: []), source: nil, sourceSchema: nil,
        report: { var r = ClassReport(name: t.name); r.isNew = true; return r }())
      if w.source == nil { onlyMetadata = false }
      programs.append(
        try reconcile(w, to: t, planClass: planClass, plan: plan, onlyMetadata: &onlyMetadata, violations: &additiveViolations))
      classes[t.name] = nil
    }
    // Classes the target does not mention are kept as they are (Realm never drops a class).
    for w in classes.values {
      programs.append(program(of: w, final: w.schema, extraStages: [], becomesEmbedded: false, becomesTopLevel: false, checkPK: false))
      if w.dataChanged { onlyMetadata = false }
    }
    if !additiveViolations.isEmpty {
      throw MigrationError(
        .migrationRequired,
        (["The following changes cannot be made in additive-only schema mode:"] + additiveViolations.map { "- " + $0 })
          .joined(separator: "\n"))
    }
    return programs.sorted { $0.finalSchema.name.utf8.lexicographicallyPrecedes($1.finalSchema.name.utf8) }
  }

  func program(
    of w: Working, final: ObjectSchema, extraStages: [Stage], becomesEmbedded: Bool, becomesTopLevel: Bool, checkPK: Bool
  ) -> ClassProgram {
    ClassProgram(
      finalSchema: final, sourceClass: w.source, sourceSchema: w.sourceSchema, stages: w.stages + extraStages,
      becomesEmbedded: becomesEmbedded, becomesTopLevel: becomesTopLevel, checkPrimaryKey: checkPK, report: w.report)
  }

  /// Reconciles one class with its target definition.
  func reconcile(
    _ w: Working, to t: ObjectSchema, planClass: PlanClass?, plan: MigrationPlan, onlyMetadata: inout Bool,
    violations: inout [String]
  ) throws -> ClassProgram {
    var report = w.report
    let additive = plan.mode == .additive
    let basePath = planClass?.path ?? "schema"
    func defaultValue(_ p: Property) throws -> RealmValue {
      guard let json = planClass?.defaults[p.name] else { return RealmValue.zero(for: p) }
      return try decodeDefault(json, p, "\(basePath).properties.\(p.name).default")
    }
    // Final layout: the working class's properties that stay, in their order, then new ones.
    var finalProps: [Property] = []
    var sources: [FinalSource] = []
    for (i, wp) in w.schema.properties.enumerated() {
      guard var tp = t.property(named: wp.name) else {
        if additive {
          finalProps.append(wp)
          sources.append(.copy(i, nullReplacement: nil))
        } else {
          report.removed.append(wp.name)
          onlyMetadata = false
        }
        continue
      }
      if t.primaryKey == tp.name { tp.isIndexed = true }
      let sameType = wp.type == tp.type && wp.collection == tp.collection && wp.objectType == tp.objectType
      if !sameType {
        let message = "Property '\(t.name).\(tp.name)' has been changed from '\(SchemaChange.typeString(wp))' to '\(SchemaChange.typeString(tp))'."
        if additive {
          violations.append(message)
        } else if plan.allowDataLoss {
          sources.append(.constant(try defaultValue(tp)))
          report.notes.append("'\(tp.name)' changed from '\(SchemaChange.typeString(wp))' to '\(SchemaChange.typeString(tp))', old values dropped (allowDataLoss)")
        } else {
          throw MigrationError(
            .dataLoss, path: "\(basePath).properties.\(tp.name)",
            "\(message.dropLast()) and no step writes its new values; add a 'transform' step that sets it, or set \"allowDataLoss\": true")
        }
        onlyMetadata = false
      } else if wp.isOptional && !tp.isOptional {
        if additive { violations.append("Property '\(t.name).\(tp.name)' has been made required.") }
        let replacement = try defaultValue(tp)
        sources.append(.copy(i, nullReplacement: replacement))
        report.notes.append("'\(tp.name)' made required (nulls become the default)")
        onlyMetadata = false
      } else {
        if !wp.isOptional && tp.isOptional {
          if additive { violations.append("Property '\(t.name).\(tp.name)' has been made optional.") }
          report.notes.append("'\(tp.name)' made optional")
          onlyMetadata = false
        }
        sources.append(.copy(i, nullReplacement: nil))
      }
      if wp.isIndexed != tp.isIndexed {
        report.notes.append(tp.isIndexed ? "'\(tp.name)' indexed" : "'\(tp.name)' no longer indexed")
        onlyMetadata = false
      }
      if wp.isFullTextIndexed != tp.isFullTextIndexed {
        report.notes.append(tp.isFullTextIndexed ? "'\(tp.name)' full-text indexed" : "'\(tp.name)' no longer full-text indexed")
        onlyMetadata = false
      }
      finalProps.append(tp)
    }
    for var tp in t.properties where w.schema.property(named: tp.name) == nil {
      if t.primaryKey == tp.name { tp.isIndexed = true }
      finalProps.append(tp)
      sources.append(.constant(try defaultValue(tp)))
      if !report.added.contains(tp.name) { report.added.append(tp.name) }
      onlyMetadata = false
    }
    var checkPK = false
    if w.schema.primaryKey != t.primaryKey {
      if additive {
        violations.append(SchemaChange.changePrimaryKey(className: t.name, old: w.schema.primaryKey, new: t.primaryKey).realmMessage)
      }
      checkPK = t.primaryKey != nil
      report.notes.append("primary key \(w.schema.primaryKey.map { "'\($0)'" } ?? "none") -> \(t.primaryKey.map { "'\($0)'" } ?? "none")")
      onlyMetadata = false
    } else if let pk = t.primaryKey, w.written.contains(pk) {
      checkPK = true
    }
    if w.schema.isEmbedded != t.isEmbedded {
      if additive { violations.append(SchemaChange.changeClassType(className: t.name, toEmbedded: t.isEmbedded).realmMessage) }
      report.notes.append(t.isEmbedded ? "made embedded" : "made top-level")
      onlyMetadata = false
    }
    if w.dataChanged { onlyMetadata = false }
    let final = ObjectSchema(name: t.name, isEmbedded: t.isEmbedded, primaryKey: t.primaryKey, properties: finalProps)
    let isIdentity = sources.count == w.schema.properties.count
      && sources.enumerated().allSatisfy { i, s in if case .copy(let j, nil) = s { return i == j } else { return false } }
    return program(
      of: Working(schema: w.schema, source: w.source, sourceSchema: w.sourceSchema, stages: w.stages, written: w.written, report: report),
      final: final, extraStages: isIdentity ? [] : [.reconcile(sources)],
      becomesEmbedded: t.isEmbedded && !w.schema.isEmbedded && w.source != nil,
      becomesTopLevel: !t.isEmbedded && w.schema.isEmbedded && w.source != nil, checkPK: checkPK)
  }
}

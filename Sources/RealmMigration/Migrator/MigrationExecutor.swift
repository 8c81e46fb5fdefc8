import RealmModel

/// Runs a ``MigrationProgram``: streams every class's objects from the source through its
/// stages into the sink, keeping links, embedded objects and primary keys consistent.
///
/// Memory stays proportional to one object, except for what the data itself requires: the keys
/// of deleted objects (so links to them can be removed), the objects of a class that becomes
/// embedded (so they can be placed inline in their parent), and the primary-key values of a
/// class whose key is added or moved (to detect duplicates).
public final class MigrationExecutor {
  let program: MigrationProgram
  let source: any MigrationSource
  let programsByName: [String: ClassProgram]
  /// Source class name -> final class name.
  let finalName: [String: String]
  /// Final class name -> keys deleted by `deleteObjects`.
  var deletedKeys: [String: Set<Int64>] = [:]
  /// Final class name -> its objects, for classes that become embedded.
  var embeddedPool: [String: [Int64: [RealmValue]]] = [:]
  /// Final class name -> key -> number of parents found.
  var parentCounts: [String: [Int64: Int]] = [:]
  /// Objects of embedded classes that become top-level, gathered from their parents.
  var reports: [String: ClassReport] = [:]
  var execRunner: ExecRunner?
  /// Counts the source objects streamed (both passes); its total is set by ``run(into:)``.
  public var progress: ProgressCounter?

  /// Prepares a run.
  public init(program: MigrationProgram, source: any MigrationSource) {
    self.program = program
    self.source = source
    var byName: [String: ClassProgram] = [:]
    var names: [String: String] = [:]
    for c in program.classes {
      byName[c.finalSchema.name] = c
      if let s = c.sourceClass { names[s] = c.finalSchema.name }
    }
    programsByName = byName
    finalName = names
  }

  /// Runs the migration into `sink` and returns the per-class report.
  public func run(into sink: any MigrationSink) throws -> [ClassReport] {
    if let progress { progress.setTotal(try objectsToStream()) }
    // Pass 1: which objects are deleted, and the objects of classes that become embedded.
    for c in program.classes where c.sourceClass != nil {
      guard needsFirstPass(c) else { continue }
      var deleted = Set<Int64>()
      var pool: [Int64: [RealmValue]] = [:]
      if !c.becomesEmbedded, let src = c.sourceClass, let lastDelete = c.stages.lastIndex(where: { if case .delete = $0 { return true } else { return false } }) {
        // Only the deleted keys are needed: the stages after the last delete (an `exec`
        // program among them) need not run twice.
        try stream(c.stages[...lastDelete], from: src, deleted: { deleted.insert($0) }, counting: {}) { _, _, _ in }
      } else {
        try forEachMigrated(c, deleted: { deleted.insert($0) }) { key, values in
          if c.becomesEmbedded { pool[key] = values }
        }
      }
      deletedKeys[c.finalSchema.name] = deleted
      if c.becomesEmbedded {
        embeddedPool[c.finalSchema.name] = pool
        parentCounts[c.finalSchema.name] = [:]
      }
    }
    // Pass 2: write every top-level class.
    for c in program.classes where !c.finalSchema.isEmbedded {
      var report = c.report
      try sink.beginClass(c.finalSchema)
      var pk = PrimaryKeyCheck(c)
      var before = 0
      var after = 0
      var touched = 0
      let rewritten = !c.isUnchanged
      let needsFinalize = c.finalSchema.properties.contains { $0.type == .object || $0.type == .mixed || $0.collection != .single }
      if c.sourceClass != nil {
        try forEachMigrated(c, deleted: { _ in }, counting: { before += 1 }) { key, values, changed in
          var out = values
          // Only links, mixed values and collections can need rewriting (renamed, deleted or
          // embedded targets); skipping the rest avoids copying every object's values.
          if needsFinalize {
            for i in out.indices { out[i] = try self.finalize(out[i], property: c.finalSchema.properties[i]) }
          }
          try pk.record(key: key, values: out)
          try sink.add(key: key, values: out)
          after += 1
          if rewritten || changed || out != values { touched += 1 }
        }
      }
      try sink.endClass()
      try pk.finish()
      report.objectsBefore = before
      report.objectsAfter = after
      report.objectsTouched = touched
      reports[c.finalSchema.name] = report
    }
    try checkEmbeddedParents()
    for c in program.classes where c.finalSchema.isEmbedded {
      var report = c.report
      if let counts = parentCounts[c.finalSchema.name] { report.objectsAfter = counts.count }
      reports[c.finalSchema.name] = report
    }
    return program.classes.compactMap { reports[$0.finalSchema.name] }
  }

  /// Whether pass 1 streams the class (to find deleted keys or gather embedded objects).
  func needsFirstPass(_ c: ClassProgram) -> Bool {
    c.becomesEmbedded || c.stages.contains { if case .delete = $0 { return true } else { return false } }
  }

  /// The source objects both passes will stream: the progress total.
  func objectsToStream() throws -> Int {
    var total = 0
    for c in program.classes {
      guard let src = c.sourceClass else { continue }
      // Saturating: a damaged file may claim absurd counts (the walk itself is bounded).
      let count = max(0, try source.objectCount(ofClass: src))
      let passes = (needsFirstPass(c) ? 1 : 0) + (c.finalSchema.isEmbedded ? 0 : 1)
      let (product, overflow) = count.multipliedReportingOverflow(by: passes)
      let (sum, overflowSum) = total.addingReportingOverflow(product)
      total = overflow || overflowSum ? .max : sum
    }
    return total
  }

  // MARK: - Streaming one class through its stages

  /// Streams the class's surviving objects after all stages; `deleted` sees removed keys.
  func forEachMigrated(
    _ c: ClassProgram, deleted: (Int64) -> Void, counting: () -> Void = {},
    _ body: (Int64, [RealmValue]) throws -> Void
  ) throws {
    try forEachMigrated(c, deleted: deleted, counting: counting) { key, values, _ in try body(key, values) }
  }

  func forEachMigrated(
    _ c: ClassProgram, deleted: (Int64) -> Void, counting: () -> Void,
    _ body: (Int64, [RealmValue], Bool) throws -> Void
  ) throws {
    guard let src = c.sourceClass else { return }
    try stream(c.stages[...], from: src, deleted: deleted, counting: counting, body)
  }

  /// Streams the source objects through `stages`. An `exec` stage is a barrier: the stages
  /// before the last one stream into its program (recursively, so several `exec` steps run
  /// side by side as a pipeline), the stages after it run on its answers.
  func stream(
    _ stages: ArraySlice<Stage>, from src: String, deleted: (Int64) -> Void, counting: () -> Void,
    _ body: (Int64, [RealmValue], Bool) throws -> Void
  ) throws {
    guard let execIndex = stages.lastIndex(where: { if case .exec = $0 { return true } else { return false } }),
      case .exec(let stage) = stages[execIndex]
    else {
      let all = Array(stages)
      var ticker = ProgressTicker(progress)
      defer { ticker.flush() }
      try source.forEachObject(ofClass: src) { key, values in
        ticker.tick()
        counting()
        var v = values
        guard try apply(all, to: &v, key: key) else {
          deleted(key)
          return
        }
        try body(key, v, false)
      }
      return
    }
    let tail = Array(stages[(execIndex + 1)...])
    let runner = ExecRunner(
      stage: stage, sourceClasses: program.classes.compactMap(\.sourceSchema),
      sourceName: { self.programsByName[$0]?.sourceClass ?? $0 })
    try runner.run(
      produce: { emit in
        try self.stream(stages[..<execIndex], from: src, deleted: deleted, counting: counting) { key, values, _ in
          try emit(key, values)
        }
      },
      consume: { key, values, changed in
        var v = values
        guard try self.apply(tail, to: &v, key: key) else { deleted(key); return }
        try body(key, v, changed)
      })
  }

  /// Applies stages to one object's values; false when the object is deleted.
  func apply(_ stages: [Stage], to values: inout [RealmValue], key: Int64) throws -> Bool {
    try Self.apply(stages, to: &values, key: key)
  }

  /// Applies stages to one object's values; false when the object is deleted. The same code
  /// serves the rewrite and the column-wise path (``TransformColumnSource``).
  static func apply(_ stages: [Stage], to values: inout [RealmValue], key: Int64) throws -> Bool {
    for stage in stages {
      switch stage {
      case .rename:
        continue
      case .insert(let at, let v):
        values.insert(v, at: min(at, values.count))
      case .remove(let at):
        if at < values.count { values.remove(at: at) }
      case .transform(let t):
        try applyTransform(t, to: &values, key: key)
      case .delete(let filter):
        if try filter?.matches(values, objectKey: key) ?? true { return false }
      case .exec:
        // Top-level classes stream through `stream`; an embedded class's objects come inline.
        throw MigrationError(.unsupported, "'exec' steps cannot run on an embedded class (its objects live inside their parents)")
      case .reconcile(let sources):
        var out: [RealmValue] = []
        out.reserveCapacity(sources.count)
        for s in sources {
          switch s {
          case .constant(let v): out.append(v)
          case .copy(let i, let replacement):
            let v = i < values.count ? values[i] : .null
            if let replacement, v.isNull { out.append(replacement) } else { out.append(v) }
          }
        }
        values = out
      }
    }
    return true
  }

  static func applyTransform(_ t: TransformStage, to values: inout [RealmValue], key: Int64) throws {
    let matches = try t.filter?.matches(values, objectKey: key) ?? true
    guard matches else {
      for (_, fallback) in t.appended { values.append(fallback) }
      for (i, fallback) in t.retyped { values[i] = fallback }
      return
    }
    // Every expression sees the values before the step (`old`): evaluate them all first, then
    // write them, so that `values` is not copied while `old` still shares its storage.
    var assigned: [RealmValue?] = []
    assigned.reserveCapacity(t.targets.count)
    for target in t.targets {
      let raw: RealmValue
      do {
        raw = try target.expression.evaluate(old: values, new: assigned, objectKey: key)
      } catch let e as MigrationError {
        throw e
      } catch {
        throw MigrationError(.evaluationFailed, path: target.path, "object with key \(key): \(error)")
      }
      assigned.append(try ValueCoercion.coerce(raw, to: target.property, context: { "object with key \(key)" }, path: target.path))
    }
    for (_, fallback) in t.appended { values.append(fallback) }
    for (target, v) in zip(t.targets, assigned) { values[target.index] = v ?? .null }
  }

  // MARK: - Links, embedded objects

  /// Rewrites links for renamed, deleted, embedded and no-longer-embedded classes, and runs
  /// embedded objects through their own class's stages.
  func finalize(_ value: RealmValue, property: Property?) throws -> RealmValue {
    switch value {
    case .link(let l):
      return try finalizeLink(l) ?? .null
    case .embedded(let e):
      let name = finalName[e.className] ?? e.className
      guard let c = programsByName[name] else { return .null }
      if c.becomesTopLevel { return .link(ObjectLink(className: name, key: e.key)) }
      var v = e.properties.map(\.value)
      guard try apply(c.stages, to: &v, key: e.key) else { return .null }
      var props: [NamedValue] = []
      props.reserveCapacity(v.count)
      for (i, p) in c.finalSchema.properties.enumerated() where i < v.count {
        props.append(NamedValue(p.name, try finalize(v[i], property: p)))
      }
      return .embedded(EmbeddedObject(className: name, key: e.key, properties: props))
    case .list(let items):
      return .list(try items.compactMap { try finalizeElement($0) })
    case .set(let items):
      return .set(try items.compactMap { try finalizeElement($0) })
    case .dictionary(let entries):
      return .dictionary(try entries.map { DictionaryEntry($0.key, try finalize($0.value, property: nil)) })
    default:
      return value
    }
  }

  /// Inside lists and sets a link to a deleted object disappears instead of becoming null.
  func finalizeElement(_ value: RealmValue) throws -> RealmValue? {
    if case .link(let l) = value {
      guard let out = try finalizeLink(l) else { return nil }
      return out
    }
    return try finalize(value, property: nil)
  }

  func finalizeLink(_ l: ObjectLink) throws -> RealmValue? {
    let name = finalName[l.className] ?? l.className
    if deletedKeys[name]?.contains(l.key) == true { return nil }
    if let pool = embeddedPool[name] {
      guard let values = pool[l.key], let c = programsByName[name] else { return nil }
      parentCounts[name, default: [:]][l.key, default: 0] += 1
      var props: [NamedValue] = []
      for (i, p) in c.finalSchema.properties.enumerated() where i < values.count {
        props.append(NamedValue(p.name, try finalize(values[i], property: p)))
      }
      return .embedded(EmbeddedObject(className: name, key: l.key, properties: props))
    }
    return .link(ObjectLink(className: name, key: l.key))
  }

  /// Realm's rule for a class made embedded: every object has exactly one parent.
  func checkEmbeddedParents() throws {
    for (name, pool) in embeddedPool.sorted(by: { $0.key < $1.key }) {
      let counts = parentCounts[name] ?? [:]
      let orphans = pool.keys.filter { counts[$0] == nil }.sorted()
      if !orphans.isEmpty {
        throw MigrationError(
          .constraintViolated,
          "Cannot convert '\(name)' to embedded: at least one object has no incoming links and would be deleted. "
            + "\(orphans.count) object(s) have no parent; first keys: \(orphans.prefix(5).map(String.init).joined(separator: ", ")).")
      }
      let multi = counts.filter { $0.value > 1 }.keys.sorted()
      if !multi.isEmpty {
        throw MigrationError(
          .constraintViolated,
          "Cannot convert '\(name)' to embedded: at least one object has more than one incoming link. "
            + "\(multi.count) object(s) have several parents; first keys: \(multi.prefix(5).map(String.init).joined(separator: ", ")).")
      }
    }
  }
}

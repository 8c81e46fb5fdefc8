import RealmFormat
import RealmModel

/// A class's stages run over the columns of a whole cluster at once, with the expressions'
/// column kernels: the values ``TransformColumnSource`` computes object by object, without a
/// ``RealmValue`` array per object. Built only when every stage can run this way (no filter,
/// no delete, no exec, every expression with a kernel, single-value properties); any batch
/// where a kernel or a conversion would fail throws ``KernelFallback`` and is computed object
/// by object instead (which reports the error with its object).
struct ColumnStages: Sendable {
  /// The stages before the final reconcile.
  let stages: [Stage]
  let finalSources: [FinalSource]?
  let finalPositions: [Int]
  let properties: [Property]

  init?(stages: [Stage], finalSources: [FinalSource]?, finalPositions: [Int], properties: [Property]) {
    for stage in stages {
      switch stage {
      case .rename, .insert, .remove, .reconcile: continue
      case .transform(let t):
        guard t.filter == nil else { return nil }
        for target in t.targets where target.expression.columnKernel == nil || target.property.collection != .single {
          return nil
        }
      case .delete, .exec: return nil
      }
    }
    guard properties.allSatisfy({ $0.collection == .single }) else { return nil }
    self.stages = stages
    self.finalSources = finalSources
    self.finalPositions = finalPositions
    self.properties = properties
  }

  /// The computed columns' values for `count` objects whose read columns are `columns`.
  func values(count: Int, columns: [ColumnValues?]) throws(KernelFallback) -> [ColumnValues] {
    var layout = columns
    for stage in stages {
      switch stage {
      case .rename: continue
      case .insert(let at, let value): layout.insert(.repeated(value, count: count), at: min(at, layout.count))
      case .remove(let at): if at < layout.count { layout.remove(at: at) }
      case .transform(let t):
        // Every expression sees the layout before the step (`old`) and the values assigned
        // before it in the step (`new`).
        var assigned: [ColumnValues] = []
        assigned.reserveCapacity(t.targets.count)
        for target in t.targets {
          guard let kernel = target.expression.columnKernel else { throw KernelFallback() }
          let raw = try kernel(KernelInput(count: count, old: layout, new: assigned)).checked(count)
          assigned.append(try Self.fit(raw, to: target.property))
        }
        for (_, fallback) in t.appended { layout.append(.repeated(fallback, count: count)) }
        for (target, v) in zip(t.targets, assigned) {
          guard target.index < layout.count else { throw KernelFallback() }
          layout[target.index] = v
        }
      case .reconcile(let sources):
        layout = sources.map { Self.reconciled($0, layout, count) }
      case .delete, .exec: throw KernelFallback()
      }
    }
    var out: [ColumnValues] = []
    out.reserveCapacity(finalPositions.count)
    for (c, j) in finalPositions.enumerated() {
      let final: ColumnValues?
      if let source = finalSources?[j] {
        final = Self.reconciled(source, layout, count)
      } else {
        final = j < layout.count ? layout[j] : nil
      }
      out.append(try Self.stored(final ?? .nulls(count), as: properties[c]))
    }
    return out
  }

  /// A reconcile source's column (nil: a column not read, null for every object).
  static func reconciled(_ source: FinalSource, _ layout: [ColumnValues?], _ count: Int) -> ColumnValues? {
    switch source {
    case .constant(let v): return .repeated(v, count: count)
    case .copy(let i, let replacement):
      let column = i < layout.count ? layout[i] : nil
      guard let replacement else { return column }
      guard let column else { return .repeated(replacement, count: count) }
      return .typed(column.realmValues.map { $0.isNull ? replacement : $0 })
    }
  }

  /// True when the column's form holds values of exactly type `type`.
  static func matches(_ column: ColumnValues, _ type: PropertyType) -> Bool {
    switch (column, type) {
    case (.int, .int), (.bool, .bool), (.double, .double), (.float, .float), (.date, .date), (.string, .string): return true
    default: return false
    }
  }

  /// The values as ``ValueCoercion/coerce(_:to:context:path:)`` fits them to `p` (a single
  /// value property).
  static func fit(_ column: ColumnValues, to p: Property) throws(KernelFallback) -> ColumnValues {
    let nullable = p.isOptional || p.type == .mixed || p.type == .object
    if matches(column, p.type) {
      if !nullable && hasNulls(column) { throw KernelFallback() }
      return column
    }
    var out: [RealmValue] = []
    out.reserveCapacity(column.count)
    for i in 0..<column.count {
      do {
        out.append(try ValueCoercion.element(column.value(at: i), p, { "" }, nil))
      } catch {
        throw KernelFallback()
      }
    }
    return .typed(out)
  }

  /// The values as the rewrite's builder stores them in a column of `p` (numbers converted,
  /// required values checked).
  static func stored(_ column: ColumnValues, as p: Property) throws(KernelFallback) -> ColumnValues {
    if matches(column, p.type) {
      if !p.isOptional && hasNulls(column) { throw KernelFallback() }
      return column
    }
    var out: [RealmValue] = []
    out.reserveCapacity(column.count)
    for i in 0..<column.count {
      guard let v = try? TypedLeafEncoder.coerced(column.value(at: i), to: p.type), !(v.isNull && !p.isOptional) else {
        throw KernelFallback()
      }
      out.append(v)
    }
    return .typed(out)
  }

  static func hasNulls(_ column: ColumnValues) -> Bool {
    switch column {
    case .int(let c): return c.hasNulls && c.nulls.contains(true)
    case .bool(let c): return c.hasNulls && c.nulls.contains(true)
    case .double(let c): return c.hasNulls && c.nulls.contains(true)
    case .float(let c): return c.hasNulls && c.nulls.contains(true)
    case .date(let c): return c.hasNulls && c.nulls.contains(true)
    case .string(let c): return c.hasNulls && c.nulls.contains(true)
    case .values(let v): return v.contains(where: \.isNull)
    }
  }
}

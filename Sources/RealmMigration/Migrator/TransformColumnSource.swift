import RealmFormat
import RealmModel

/// The values of a class's computed columns on the column-wise transform path, cluster by
/// cluster: through the column kernels (``ColumnStages``) when every stage has them, else
/// (and for any batch a kernel sends back) each object's values go through the class's stages
/// exactly as in the rewrite (``MigrationExecutor/apply(_:to:key:)``), and the final values
/// of the computed columns are kept.
final class TransformColumnSource: ColumnValueSource, @unchecked Sendable {
  let className: String
  let stages: [Stage]
  /// Per computed column, its position in the final layout.
  let finalPositions: [Int]
  let properties: [Property]
  let readColumns: Set<Int>?
  let allowsConcurrentCalls: Bool
  /// Counts the objects computed, a cluster at a time; a cancelled counter stops the work.
  let progress: ProgressCounter?
  /// The stages before a final reconcile, and that reconcile's sources.
  let leadingStages: [Stage]
  let finalSources: [FinalSource]?
  /// The same computation over columns, when every stage can run that way.
  let columnStages: ColumnStages?

  init(
    className: String, stages: [Stage], finalPositions: [Int], properties: [Property], readColumns: Set<Int>?,
    allowsConcurrentCalls: Bool, progress: ProgressCounter? = nil, useKernels: Bool = true
  ) {
    self.progress = progress
    // The last stage is the reconcile that builds the final layout: only the computed
    // columns' sources are taken from it (``values(keys:columns:)``).
    if case .reconcile(let sources) = stages.last {
      leadingStages = Array(stages.dropLast())
      finalSources = sources
    } else {
      leadingStages = stages
      finalSources = nil
    }
    self.allowsConcurrentCalls = allowsConcurrentCalls
    self.className = className
    self.stages = stages
    self.finalPositions = finalPositions
    self.properties = properties
    self.readColumns = readColumns
    columnStages =
      useKernels
      ? ColumnStages(stages: leadingStages, finalSources: finalSources, finalPositions: finalPositions, properties: properties)
      : nil
  }

  func values(keys: [Int64], columns: [ColumnValues?]) throws -> [ColumnValues] {
    var result: [ColumnValues]?
    if let columnStages {
      do {
        result = try columnStages.values(count: keys.count, columns: columns)
      } catch {
        // Some object needs the object-by-object path (which reports its error).
      }
    }
    let out = try result ?? objectByObject(keys: keys, columns: columns)
    if let progress {
      progress.add(keys.count)
      if progress.isCancelled { throw ProgressCancelled() }
    }
    return out
  }

  /// The values computed object by object, as the rewrite computes them.
  func objectByObject(keys: [Int64], columns: [ColumnValues?]) throws -> [ColumnValues] {
    var out = [[RealmValue]](repeating: [], count: finalPositions.count)
    for c in out.indices { out[c].reserveCapacity(keys.count) }
    for (n, key) in keys.enumerated() {
      var v: [RealmValue] = []
      v.reserveCapacity(columns.count + finalPositions.count)
      for column in columns { v.append(column?.value(at: n) ?? .null) }
      guard try MigrationExecutor.apply(leadingStages, to: &v, key: key) else {
        throw MigrationError(.unsupported, "object \(key) of '\(className)' was deleted on the column path")
      }
      for (c, j) in finalPositions.enumerated() {
        let p = properties[c]
        let value: RealmValue
        do throws(FormatError) {
          // The final reconcile for this column only (the rest of the object is not needed),
          // then the value as the rewrite's builder stores it (numbers converted, required
          // values checked).
          let final: RealmValue
          switch finalSources?[j] {
          case nil: final = v[j]
          case .constant(let constant): final = constant
          case .copy(let i, let replacement):
            let x = i < v.count ? v[i] : .null
            final = x.isNull ? (replacement ?? x) : x
          }
          value = try TypedLeafEncoder.coerced(final, to: p.type)
          if value.isNull && !p.isOptional { throw FormatError.corrupt("a value is required but found null") }
        } catch {
          throw FormatError.corrupt("property '\(className).\(p.name)' of object \(key): \(error.detail)")
        }
        out[c].append(value)
      }
    }
    return out.map { .typed($0) }
  }
}

import RealmFormat
import RealmModel
import RealmStorage
import RealmRewrite

extension Migrator {
  /// Writes a data-only program the cheapest way the migrator knows: the in-place column edit
  /// when it fits (an update of columns it computes), else the rewrite.
  package static func writeDataProgram(
    _ program: MigrationProgram, group: Group, path: String, lock: FileLock, options: MigrationOptions
  ) throws -> (MigrationResult.WritePath, [ClassReport]) {
    if options.inPlaceColumnChanges,
      let columnPlan = columnChangePlan(program, group: group, progress: options.progress)
    {
      var reports = program.classes.map(\.report)
      for i in reports.indices {
        let n = group.table(forClass: reports[i].name)?.objectCount ?? 0
        reports[i].objectsBefore = n
        reports[i].objectsAfter = n
      }
      try writeColumnsInPlace(columnPlan, group: group, path: path, lock: lock, options: options)
      return (.columns, reports)
    }
    let source = GroupSource(group: group, path: path)
    if options.dryRun {
      let builder: RealmFileBuilder<CountingNodeSink> = try RealmFileBuilder(
        schema: program.finalSchema, fileFormat: WritableFileFormat.target(rewriting: group, requested: options.fileFormat), sink: CountingNodeSink())
      let executor = MigrationExecutor(program: program, source: source)
      executor.progress = options.progress
      let reports = try executor.run(into: BuilderSink<CountingNodeSink>(builder))
      _ = try builder.finish()
      return (.rewrite, reports)
    }
    var reports: [ClassReport] = []
    // The rewrite keeps the file's format (issue 16).
    let format = WritableFileFormat.target(rewriting: group, requested: options.fileFormat)
    try rewrite(path: path, schema: program.finalSchema, format: format, lock: lock, options: options) { builder in
      let executor = MigrationExecutor(program: program, source: source)
      executor.progress = options.progress
      return try executor.run(into: BuilderSink<FileNodeSink>(builder))
    } reportsOut: { reports = $0 }
    return (.rewrite, reports)
  }
}

/// Runs an `exec` step's external program: objects go to its stdin as canonical JSON lines,
/// their new versions come back on its stdout.
final class ExecRunner {
  let stage: ExecStage

  init(stage: ExecStage) { self.stage = stage }

  /// Streams objects from `produce` through the program into `consume`.
  func run(
    produce: (_ emit: (Int64, [RealmValue]) throws -> Void) throws -> Void,
    consume: (Int64, [RealmValue], Bool) throws -> Void
  ) throws {
    throw MigrationError(.unsupported, path: stage.path, "'exec' steps are not supported yet")
  }
}

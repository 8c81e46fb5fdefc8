import Testing

/// The reasons tests give when they skip themselves, so that the summary `make test` prints
/// after the suite says why each skipped test did not run.
public enum SkipReason {
  /// For the entry point of a child process that another test starts (crash and lock tests):
  /// in a normal run it has nothing to do.
  public static let childProcessOnly: Comment =
    "the child-process side of another test: runs only in the process that test starts"
}

extension ArgumentSpec {
  /// `-q, --quiet`: no progress display, for the commands that can run long.
  public static let quietFlag = ArgumentSpec.flag(
    "quiet", short: "q", help: "Show no progress on standard error.")
}

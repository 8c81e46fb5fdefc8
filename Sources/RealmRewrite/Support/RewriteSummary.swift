/// What a compaction (`Compaction`) or a key rewrite (`KeyRewrite`) did: the file's size and
/// format before and after.
public struct RewriteSummary: Sendable {
  /// Size of the original on disk.
  public var sizeBefore: Int
  /// Size of the new file on disk.
  public var sizeAfter: Int
  /// File format before.
  public var fromFormat: Int
  /// File format after.
  public var toFormat: Int

  /// A file copied in its own `format`, from `sizeBefore` to `sizeAfter` bytes.
  init(sizeBefore: Int, sizeAfter: Int, format: Int) {
    self.sizeBefore = sizeBefore
    self.sizeAfter = sizeAfter
    fromFormat = format
    toFormat = format
  }

  /// What the upgrade did that a compaction or key rewrite ran to change the format.
  init(_ upgrade: UpgradeResult) {
    sizeBefore = upgrade.sizeBefore
    sizeAfter = upgrade.sizeAfter
    fromFormat = upgrade.fromFormat
    toFormat = upgrade.toFormat
  }
}

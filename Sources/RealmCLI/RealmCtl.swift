/// The realmctl command layer entry point.
public enum RealmCtl {
  /// The version printed by `realmctl --version`.
  public static let version = "0.1.0"
}

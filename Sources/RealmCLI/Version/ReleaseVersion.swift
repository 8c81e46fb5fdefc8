/// realmctl's version, the one place it is defined.
///
/// Versions follow semantic versioning; the public contract is the file formats read and
/// written, the dump and schema JSON, the JSON reports and the exit codes (see the README). The
/// Makefile reads the number from this file (`make version`), and with it the release archives'
/// names; the man page and `realmctl --version` get it through ``RealmCtl/version``.
public enum ReleaseVersion {
  /// The version number (`MAJOR.MINOR.PATCH`).
  public static let number = "1.0.0"
}

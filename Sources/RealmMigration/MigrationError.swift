import RealmModel

/// Why a plan was rejected or a migration could not be applied.
///
/// Every error is raised before the file is touched, or rolls the whole migration back.
/// `path` is the JSON path in the plan (`migrations[1].steps[0].from`) when the plan is at fault.
public struct MigrationError: CodedError, CustomStringConvertible {
  /// The kind of failure.
  public enum Code: String, Sendable, Hashable {
    /// The plan file is not valid JSON or not a valid plan.
    case invalidPlan
    /// The plan's target version is lower than the file's version.
    case versionLower
    /// Same version but the schemas differ in a way that needs a migration.
    case migrationRequired
    /// A change would lose data and the plan did not allow it.
    case dataLoss
    /// The data does not allow the change (duplicate primary keys, orphans, ...).
    case constraintViolated
    /// An expression failed while evaluating an object.
    case evaluationFailed
    /// An external `exec` program failed or answered wrongly.
    case execFailed
    /// The operation is not supported by realmctl yet.
    case unsupported
    /// Objects to insert or values to set do not fit the schema or the file's objects
    /// (`insert`, `update`: a wrong type, a missing required property, a duplicate primary key,
    /// a link to no object).
    case invalidData
  }

  /// The kind of failure.
  public var code: Code
  /// JSON path in the plan, when the plan is at fault.
  public var path: String?
  /// The message (Realm's wording where Realm has one).
  public var message: String

  /// Creates an error.
  public init(_ code: Code, path: String? = nil, _ message: String) {
    self.code = code
    self.path = path
    self.message = message
  }

  public var description: String {
    if let path, !path.isEmpty { return "\(path): \(message)" }
    return message
  }

  /// A plan error at `path`.
  public static func plan(_ path: String, _ message: String) -> MigrationError {
    MigrationError(.invalidPlan, path: path, message)
  }
}

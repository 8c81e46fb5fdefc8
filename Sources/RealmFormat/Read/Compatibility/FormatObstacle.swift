/// The first thing found in a file that a target file format cannot store: where it is, why,
/// and the format that introduced it.
///
/// ``message`` is the sentence a refusal shows, for example
/// "`Item.attrs` holds a nested list inside a Mixed (format 24 only)" or
/// "`Note.body` has a full-text index (format 23 and later)".
public struct FormatObstacle: Sendable, Hashable, Error, CustomStringConvertible {
  /// The class (the table name for tables that are not Object Store classes).
  public var className: String
  /// The property, nil when the class itself is the obstacle (an embedded or asymmetric class).
  public var property: String?
  /// The object whose value is the obstacle, nil for obstacles of the schema.
  public var objectKey: Int64?
  /// What the class or property is or holds: `is a Set of Mixed`, `holds a nested list inside a Mixed`.
  public var reason: String
  /// The features the target format lacks (one or more: a `Set` of `UUID` needs both).
  public var features: [FormatFeature]

  /// Creates an obstacle.
  public init(className: String, property: String?, objectKey: Int64? = nil, reason: String, features: [FormatFeature]) {
    self.className = className
    self.property = property
    self.objectKey = objectKey
    self.reason = reason
    self.features = features
  }

  /// The first file format that can store it: the newest format among ``features``.
  public var introducedIn: Int { features.map(\.introducedIn).max() ?? 0 }

  /// `Class.property` (or `Class`) in backquotes, the reason and the formats that can store it.
  public var message: String {
    let subject = property.map { "\(className).\($0)" } ?? className
    return "`\(subject)` \(reason) (\(FormatFeature.formatsText(from: introducedIn)))"
  }

  public var description: String { message }
}

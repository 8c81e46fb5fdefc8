/// Something a Realm file can hold that not every file format can store, with the format
/// that introduced it.
///
/// The list and the formats come from Realm Core: the history of file formats in `group.hpp`,
/// its `CHANGELOG.md` and the upgrade steps of `Transaction::upgrade_file_format`:
/// - format 20 (Realm Core 10.0.0, "File format bumped to 20"): Decimal128, ObjectId, embedded
///   classes. Realm Core 10.2.0 added Mixed, UUID, typed links, Set and Dictionary ("New data
///   types: Mixed, UUID and TypedLink. New collection types: Set and Dictionary") and kept
///   writing format 20 up to 10.8; `group.hpp` lists them under 21, the number Realm Core 11's
///   betas gave the same layout, and Realm Core 11's upgrade of a format-20 file leaves them as
///   they are. Real format-20 files hold them (a Realm JS 10 app file with Mixed properties).
/// - format 22 (Realm Core 12.1.0, "Support for asymmetric sync"): asymmetric classes.
/// - format 23 (Realm Core 13.0.0, "Full text index supported at Core level").
/// - format 24 (Realm Core 14.0.0): lists and dictionaries nested inside Mixed values.
///
/// Every other difference between formats 20 and 24 (dictionary layout, set and index
/// orderings, link-list column keys, decimal widths, backlink lists, primary-key indexes and
/// object keys) is a matter of encoding that a writer can follow in either direction; these
/// cannot be expressed at all in the older formats.
public enum FormatFeature: String, Sendable, Hashable, CaseIterable {
  /// A `Decimal128` property (format 20, Realm Core 10).
  case decimal128
  /// An `ObjectId` property (format 20, Realm Core 10).
  case objectId
  /// An embedded class (format 20, Realm Core 10).
  case embeddedClass
  /// A `UUID` property (format 20, Realm Core 10.2).
  case uuid
  /// A `Mixed` property, which may also hold links to any class (format 20, Realm Core 10.2).
  case mixed
  /// A `Set` property (format 20, Realm Core 10.2).
  case set
  /// A `Dictionary` property (format 20, Realm Core 10.2).
  case dictionary
  /// An asymmetric class (Realm Core 12.1, which writes format 22).
  case asymmetricClass
  /// A full-text index on a string property (Realm Core 13.0, format 23).
  case fullTextIndex
  /// A list or dictionary nested inside a `Mixed` value (format 24, Realm Core 14).
  case nestedCollectionInMixed

  /// The first file format that can store the feature.
  public var introducedIn: Int {
    switch self {
    case .decimal128, .objectId, .embeddedClass, .uuid, .mixed, .set, .dictionary: 20
    case .asymmetricClass: 22
    case .fullTextIndex: 23
    case .nestedCollectionInMixed: 24
    }
  }

  /// The first Realm Core release that writes it: `Realm Core 10.2.0`.
  public var introducedBy: String {
    switch self {
    case .decimal128, .objectId, .embeddedClass: "Realm Core 10.0.0"
    case .uuid, .mixed, .set, .dictionary: "Realm Core 10.2.0"
    case .asymmetricClass: "Realm Core 12.1.0"
    case .fullTextIndex: "Realm Core 13.0.0"
    case .nestedCollectionInMixed: "Realm Core 14.0.0"
    }
  }

  /// True when a file format can store the feature.
  public func isStorable(in format: Int) -> Bool { format >= introducedIn }

  /// `format 23 and later`, or `format 24 only` for the newest format.
  static func formatsText(from format: Int) -> String {
    format >= FormatConstants.currentFileFormat ? "format \(format) only" : "format \(format) and later"
  }
}

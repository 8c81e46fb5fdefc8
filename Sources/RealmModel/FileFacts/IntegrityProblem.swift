/// One structural problem found in a file by `Group.check(maxProblems:)` (RealmFormat).
public struct IntegrityProblem: Sendable, Hashable, CustomStringConvertible {
  /// What kind of rule is broken.
  public enum Kind: String, Sendable, Hashable {
    /// A ref is misaligned, inside the header or past the logical file size.
    case invalidRef
    /// A node is reachable through more than one ref (or through a cycle).
    case sharedNode
    /// Nodes and free chunks overlap.
    case overlap
    /// Bytes in `[24, logical size)` are neither a node nor free (§8.4).
    case unaccountedSpace
    /// The free lists are malformed (unequal lengths, bad chunks).
    case freeList
    /// A cluster column leaf does not hold one value per object.
    case clusterSize
    /// Object keys are not strictly ascending.
    case keyOrder
    /// An inner cluster node's object count does not match its children.
    case subtreeCount
    /// Backlinks do not match the forward links (§4.8, §6.12).
    case backlink
    /// An embedded object does not have exactly one parent.
    case embeddedParent
    /// A primary key has no search index (format >= 22, §4.6).
    case missingPrimaryKeyIndex
    /// A column of a table of formats 2-9 does not hold one value per row.
    case columnLength
    /// A link of a file of formats 2-9 points to a row its target table does not have.
    case linkTarget
    /// A structure could not be decoded at all.
    case unreadable
    /// The check stopped early (too many problems or a visit limit).
    case limit
  }

  /// The kind of problem.
  public var kind: Kind
  /// File offset of the node concerned, when there is one.
  public var offset: Int?
  /// One sentence describing the problem.
  public var message: String

  /// Creates a problem.
  public init(_ kind: Kind, at offset: Int? = nil, _ message: String) {
    self.kind = kind
    self.offset = offset
    self.message = message
  }

  /// `message (at offset 0x...)`.
  public var description: String {
    guard let offset else { return message }
    return "\(message) (at offset 0x\(String(offset, radix: 16)))"
  }
}

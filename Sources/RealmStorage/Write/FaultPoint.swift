/// The part of a write a file operation belongs to (for fault injection and tests).
public enum CommitStage: String, Sendable, Hashable {
  /// Converting a streaming-form file to the normal header form (§1.2) before the first write.
  case streamingConversion
  /// Writing new nodes of the transaction.
  case nodes
  /// Writing the free lists and the new group top array, growing the file, syncing.
  case freeListsAndTop
  /// Writing `top_ref[1-s]` and `file_format[1-s]` into the header, syncing.
  case headerSlot
  /// Flipping the select bit, syncing: the moment the new version becomes the file's.
  case selectBit
  /// Undoing a transaction (restoring the header slot, truncating the grown area).
  case rollback
  /// Writing a replacement file (``AtomicFileReplacement``).
  case replacement
}

/// One file-changing system call of a write, reported before and after it runs.
public struct FaultPoint: Sendable, Hashable, CustomStringConvertible {
  /// The system call.
  public enum Operation: Sendable, Hashable {
    /// `pwrite` of `count` bytes at `offset`.
    case write(offset: Int, count: Int)
    /// `fsync`.
    case sync
    /// `ftruncate` / `posix_fallocate` to `size`.
    case resize(size: Int)
    /// `rename` of the replacement file over the original.
    case rename

    var name: String {
      switch self {
      case .write: return "pwrite"
      case .sync: return "fsync"
      case .resize: return "resize"
      case .rename: return "rename"
      }
    }
  }

  /// Sequence number of the operation within the transaction (0, 1, 2, ...).
  public var index: Int
  /// The operation.
  public var operation: Operation
  /// Which part of the commit it belongs to.
  public var stage: CommitStage
  /// True before the call is made, false right after it returned successfully.
  public var isBefore: Bool

  public var description: String {
    "#\(index) \(isBefore ? "before" : "after") \(operation.name) (\(stage.rawValue))"
  }
}

/// What a fault-injection hook wants to happen at a ``FaultPoint``.
public enum FaultAction: Sendable, Hashable {
  /// Carry on.
  case proceed
  /// Make the operation fail with this `errno` (before: without running it).
  case fail(errno: Int32)
}

import RealmModel
/// Writes the group top array, the free lists and the file header of a new file (§1.1, §3,
/// §8.3), in the committed form an SDK's file has.
public enum GroupWriter {
  /// Page size files are rounded up to.
  public static let pageSize = 4096

  /// The result of writing a file: its 24-byte header and its size.
  public struct FinishedFile: Sendable, Equatable {
    /// The header to write at offset 0.
    public var header: [UInt8]
    /// The file size (a multiple of 4096): the logical size, with the free tail included.
    public var fileSize: Int
    /// The group top array.
    public var topRef: Ref
  }

  /// The history slots of the top array (7-10) and the snapshot version (6).
  public struct HistorySlots: Sendable, Equatable {
    /// Snapshot version (slot 6).
    public var snapshotVersion: UInt64 = 1
    /// History type (slot 7): InRealm, what SDKs use.
    public var type: UInt64 = UInt64(HistoryType.inRealm.rawValue)
    /// History root (slot 8): none yet.
    public var ref: Ref = .null
    /// History schema version (slot 9): 1 in core 14.
    public var schemaVersion: UInt64 = 1
    /// Sync file ident (slot 10).
    public var syncFileIdent: UInt64 = 0
    /// The values a new file gets.
    public init() {}
    /// The values a new file of `format` gets: history schema version 0 before format 24.
    public init(for format: WritableFileFormat) {
      schemaVersion = format.historySchemaVersion
    }
  }

  /// Writes names, tables array, free lists and the 11-slot top array after everything
  /// else, and returns the header and file size.
  ///
  /// The top array is `[names, tables, tagged logical size, free positions, free lengths,
  /// free versions, tagged snapshot version 1, tagged history type 2 (InRealm), history ref 0,
  /// tagged history schema version 1, tagged sync file ident 0]`. Everything between the top
  /// array's end and the page-aligned file end is one free chunk of version 0, so the space
  /// accounting covers the file exactly (§8.4).
  public static func finish<S: SequentialNodeSink>(
    tableNames: [String], tableRefs: [Ref], fileFormat: WritableFileFormat = .current, into sink: inout S
  ) -> FinishedFile {
    let names = sink.append(StringLeafEncoder.shortStringNode(tableNames.map { Array($0.utf8) }))
    let tables = sink.append(NodeEncoder.refArray(tableRefs.map { Int64($0.rawValue) }))
    return finish(
      namesRef: names, tablesRef: tables, history: HistorySlots(for: fileFormat), fileFormat: fileFormat.rawValue,
      into: &sink)
  }

  /// Writes the free lists and the top array for already written names and tables arrays.
  public static func finish<S: SequentialNodeSink>(
    namesRef names: Ref, tablesRef tables: Ref, history: HistorySlots,
    fileFormat: Int = FormatConstants.currentFileFormat, into sink: inout S
  ) -> FinishedFile {
    // Fixed widths make the sizes of the last four nodes independent of their values:
    // positions and lengths 8 + 8 bytes each, versions [0] 8 bytes, top 8 + 11 * 8 bytes.
    let tailStart = sink.endOffset + 16 + 16 + 8 + 96
    var fileSize = (tailStart + pageSize - 1) / pageSize * pageSize
    if fileSize == tailStart { fileSize += pageSize }
    let positions = sink.append(NodeEncoder.integerNode([Int64(tailStart)], width: 64))
    let lengths = sink.append(NodeEncoder.integerNode([Int64(fileSize - tailStart)], width: 64))
    let versions = sink.append(NodeEncoder.integerNode([Int64(0)], width: 0))
    let slots: [Int64] = [
      Int64(names.rawValue), Int64(tables.rawValue), RefOrTagged.taggedRaw(UInt64(fileSize)),
      Int64(positions.rawValue), Int64(lengths.rawValue), Int64(versions.rawValue),
      RefOrTagged.taggedRaw(history.snapshotVersion), RefOrTagged.taggedRaw(history.type),
      Int64(history.ref.rawValue), RefOrTagged.taggedRaw(history.schemaVersion),
      RefOrTagged.taggedRaw(history.syncFileIdent),
    ]
    let top = sink.append(NodeEncoder.integerNode(slots, width: 64, hasRefs: true))
    precondition(sink.endOffset == tailStart, "the group nodes have the planned sizes")
    return FinishedFile(header: header(topRef: top, fileFormat: fileFormat), fileSize: fileSize, topRef: top)
  }

  /// A non-streaming header selecting `top_ref[0]`, with `fileFormat` in slot 0 (§1.1).
  public static func header(topRef: Ref, fileFormat: Int = FormatConstants.currentFileFormat) -> [UInt8] {
    var bytes = [UInt8]()
    bytes.reserveCapacity(24)
    NodeEncoder.appendLittleEndian(&bytes, UInt64(topRef.rawValue), 8)
    NodeEncoder.appendLittleEndian(&bytes, 0, 8)
    bytes += FormatConstants.mnemonic
    bytes += [UInt8(truncatingIfNeeded: fileFormat), 0, 0, 0]
    return bytes
  }
}

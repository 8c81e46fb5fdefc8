import RealmFormat
import RealmModel

/// Receives the output bytes of a writer in chunks (stdout, a file, a test buffer).
public typealias OutputSink = ([UInt8]) throws -> Void

/// An output problem that is the caller's to fix (e.g. CSV asked for several classes).
public struct DumpOutputError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, one sentence.
  public var message: String
  /// Creates an error.
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// A streaming writer of one `dump` output format.
///
/// The caller drives it: ``begin(schema:)`` once, then per class ``beginClass(_:)``, the objects
/// in key order with ``writeObject(key:values:)`` and ``endClass()``, and finally ``finish()``,
/// which flushes everything to the sink. Writers hold at most a bounded buffer (and, for
/// `table`, the first rows of a class to size the columns), never the whole dump.
public protocol DumpWriter {
  /// Starts the output; `schema` is the file's schema (embedded classes are looked up in it).
  mutating func begin(schema: Schema) throws
  /// Starts the objects of one top-level class.
  mutating func beginClass(_ objectSchema: ObjectSchema) throws
  /// Starts the objects of one class whose largest object key is `largestKey` (nil when not
  /// known), for writers that size columns before they have seen every object.
  mutating func beginClass(_ objectSchema: ObjectSchema, largestKey: Int64?) throws
  /// One object: its key and its property values in column order.
  mutating func writeObject(key: Int64, values: [RealmValue]) throws
  /// Ends the current class.
  mutating func endClass() throws
  /// Ends the output and flushes it.
  mutating func finish() throws
  /// An encoder for objects of the current class that may run on other threads, so that a
  /// caller can encode chunks of objects in parallel and hand them back in order with
  /// ``writeEncoded(_:objectCount:)``; nil (the default) when the format must see the objects
  /// one by one (a table sizing its columns, a document tracking its nesting).
  func chunkEncoder() -> (any DumpChunkEncoder)?
  /// Writes the bytes of consecutive objects encoded by this writer's ``chunkEncoder()``, in
  /// object order, as ``writeObject(key:values:)`` would have written them.
  mutating func writeEncoded(_ bytes: [UInt8], objectCount: Int) throws
}

extension DumpWriter {
  /// ``beginClass(_:)``: most formats do not need the largest key.
  public mutating func beginClass(_ objectSchema: ObjectSchema, largestKey: Int64?) throws { try beginClass(objectSchema) }
  public func chunkEncoder() -> (any DumpChunkEncoder)? { nil }
  public mutating func writeEncoded(_ bytes: [UInt8], objectCount: Int) throws {
    throw DumpOutputError("this output format encodes objects one by one")
  }
}

/// Encodes consecutive objects of one class into one chunk of a writer's output, on any
/// thread (see ``DumpWriter/chunkEncoder()``).
public protocol DumpChunkEncoder: Sendable {
  /// Encodes the objects `objects` delivers (it calls its argument once per object, in key
  /// order) and returns their bytes.
  func encode(_ objects: (_ add: (_ key: Int64, _ values: [RealmValue]) -> Void) throws -> Void) throws -> [UInt8]
}

/// A chunk encoder that also takes its objects column by column, as the reader decodes them
/// (`Group.forEachBatch(in:columns:_:)`), and so needs no `RealmValue` per value; the
/// bytes are those ``DumpChunkEncoder/encode(_:)`` gives for the same objects.
public protocol DumpBatchEncoder: DumpChunkEncoder {
  /// Encodes the objects of the batches `batches` delivers (it calls its argument once per
  /// batch, in key order; every column decoded) and returns their bytes.
  func encodeBatches(_ batches: (_ add: (ObjectBatch) -> Void) throws -> Void) throws -> [UInt8]
}

/// The formats of `realmctl dump --format`.
public enum DumpFormat: String, Sendable, CaseIterable {
  /// Canonical JSON Lines (`docs/dump-format.md`).
  case jsonl
  /// One pretty JSON document: `{"Class": [object, …], …}`.
  case json
  /// RFC 4180 CSV of one class.
  case csv
  /// Aligned columns for people.
  case table
  /// A SQLite script (``SQLDumpWriter``).
  case sql

  /// Creates the writer of this format. `terminalWidth` is used by `table` only.
  public func makeWriter(sink: @escaping OutputSink, terminalWidth: Int = 100) -> any DumpWriter {
    switch self {
    case .jsonl: return JSONLinesDumpWriter(sink: sink)
    case .json: return JSONDocumentDumpWriter(sink: sink)
    case .csv: return CSVDumpWriter(sink: sink)
    case .table: return TableDumpWriter(sink: sink, width: terminalWidth)
    case .sql: return SQLDumpWriter(sink: sink)
    }
  }
}

/// Bytes collected before a writer hands them to its sink.
let outputChunkSize = 1 << 16

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage

/// The objects of a JSON Lines file appended to their table as they are decoded, and with
/// `--upsert` the existing ones changed a cluster leaf at a time (``StreamedUpsert``)
/// (``DataEditor/insert(path:jsonLines:mode:options:)``).
struct StreamedAppend {
  var className: String
  var slot: Int
  var objectsBefore: Int
  /// Objects appended.
  var count: Int
  /// Existing objects whose values changed (upsert).
  var updated = 0
  /// The new table top and what it replaced; nil when nothing changes (the caller writes nothing).
  var result: ClusterAppender.Result?

  /// Thrown by the consumer of the lines when one does not fit the streamed append.
  struct DoesNotFit: Error {}

  /// Thrown to stop reading the input after a hand-over that keeps no objects (the general
  /// path reads the input again).
  private struct StopReading: Error {}

  /// The objects decoded, kept for a hand-over to the general path so that it does not decode
  /// them again: every one from an input that cannot be read twice (a pipe, a terminal), the
  /// first ``keptLimit`` from a file, which a hand-over after those reads again (so that the
  /// memory of a streamed insert does not grow with its input).
  struct HandOver {
    /// `'people.jsonl' line`.
    let source: String
    /// Whether the input can be read again: a regular file.
    let rereadable: Bool
    /// The objects decoded so far, in input order; nil once more than ``keptLimit`` were
    /// decoded from a file.
    private(set) var objects: [InsertObject]? = []

    /// Objects kept from a file.
    static let keptLimit = 16_384

    init(input path: String) {
      source = "'\(path)' line"
      var info = stat()
      rereadable = stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Keeps the object of `line`: beyond ``keptLimit`` of a file, only after a hand-over
    /// (`streaming` false: the general path holds them all anyway).
    mutating func keep(_ object: DecodedObject, line: Int, streaming: Bool) {
      guard objects != nil else { return }
      if streaming && rereadable && objects!.count >= Self.keptLimit {
        objects = nil
        return
      }
      objects!.append(InsertObject(object: object, source: source, number: line))
    }
  }

  /// Appends every object of `lines` (`upsert`: changes the existing ones) and returns what it
  /// did with the sink; nil when one does not fit. The nodes written are then garbage:
  /// `abandon` is called at once, to drop them, and the rest of the input is decoded into
  /// `handOver` (or not read, when it keeps no objects) for the general path. A line that does
  /// not decode is thrown, as the general path would throw it.
  ///
  /// `open` is called at the first line and gives the file and the sink the nodes go to: a
  /// write transaction begun there runs its checks of the file while the next lines are
  /// decoded on the other cores.
  static func run<S: NodeSink>(
    _ lines: ParallelLineDecoder, schema: Schema, upsert: Bool = false, handOver: inout HandOver,
    open: () throws -> (Group, S), abandon: () -> Void = {}
  ) throws -> (StreamedAppend, S)? {
    var target: Target?
    var updates: StreamedUpsert?
    var sink: S?
    var handedOver = false
    func giveUp() throws {
      handedOver = true
      target = nil
      updates = nil
      sink = nil
      abandon()
      if handOver.objects == nil { throw StopReading() }
    }
    do {
      try lines.forEachObject { object, line in
        handOver.keep(object, line: line, streaming: !handedOver)
        guard !handedOver else { return }
        do {
          if target == nil {
            let (group, opened) = try open()
            sink = opened
            target = try Target(object.className, group: group, schema: schema)
            if upsert { updates = try StreamedUpsert(cls: target!.cls, schema: schema, table: target!.table, group: group, stream: target!.stream) }
          }
          // No copy of the target is bound here: it would make every append copy its buffers.
          guard object.className == target!.cls.name else { throw DoesNotFit() }
          if updates != nil, let position = try updates!.position(of: object) {
            // An existing object's `$key` may be given: its own.
            guard object.key == nil || object.key == updates!.key(at: position) else { throw DoesNotFit() }
            try updates!.update(object, at: position, stream: &target!.stream, sink: &sink!)
          } else {
            guard object.key == nil else { throw DoesNotFit() }
            try target!.append(object, sink: &sink!)
          }
        } catch is DoesNotFit {
          try giveUp()
        } catch is FormatError {
          // A value that does not encode, a repeated primary key: the general path says which.
          try giveUp()
        }
      }
    } catch is StopReading {
      return nil
    } catch {
      abandon()
      throw error
    }
    guard !handedOver, var t = target, var sink else {
      abandon()
      return nil
    }
    target = nil
    do {
      try updates?.flush(stream: &t.stream, sink: &sink)
      let updated = updates?.updated ?? 0
      var appended = StreamedAppend(
        className: t.cls.name, slot: t.table.slot, objectsBefore: t.table.objectCount, count: t.stream.count, updated: updated)
      if t.stream.count > 0 || updated > 0 {
        appended.result = try t.stream.finish(sequence: t.sequence, sink: &sink)
      } else if !upsert {
        abandon()
        return nil
      }
      return (appended, sink)
    } catch is DoesNotFit {
      abandon()
      return nil
    } catch is FormatError {
      abandon()
      return nil
    }
  }

  /// The table the objects go to, its appender and key sequence.
  private struct Target {
    let cls: ObjectSchema
    let table: Table
    /// Appended to here; its existing leaves are changed by ``StreamedUpsert``.
    var stream: ClusterAppender.Stream
    /// Property position (schema order) of each public column; nil when they are the same.
    let positions: [Int]?
    let squeezed: Bool
    var sequence: Int64

    init(_ className: String, group: Group, schema: Schema) throws {
      guard let table = group.table(forClass: className), let cls = schema.objectSchema(named: className) else { throw DoesNotFit() }
      guard ClusterAppender.unsupportedReason(table: table, group: group) == nil else { throw DoesNotFit() }
      let found = table.publicColumns.map { c in cls.properties.firstIndex { $0.name == c.name } }
      guard found.count == cls.properties.count, let positions = found as? [Int] else { throw DoesNotFit() }
      self.cls = cls
      self.table = table
      self.positions = positions.enumerated().allSatisfy { $0.offset == $0.element } ? nil : positions
      stream = try ClusterAppender.Stream(table: table, group: group)
      let squeezed = cls.primaryKey == nil
      self.squeezed = squeezed
      // Realm's next key: the stored sequence, else the one after the last key. Keys at or
      // below the last key (which Realm would give where free) do not fit the append.
      let last = stream.largestKey
      sequence = try ObjectKeySequence.stored(in: table, group: group)
        ?? last.map { ObjectKeySequence.after(key: $0, squeezed: squeezed) } ?? 0
    }

    mutating func append<S: NodeSink>(_ object: DecodedObject, sink: inout S) throws {
      let values: [RealmValue]
      if object.missing.isEmpty {
        values = object.values
      } else {
        guard let filled = try? InsertObject(object: object, source: "", number: 0).valuesForNewObject(cls) else { throw DoesNotFit() }
        values = filled
      }
      let ordered = positions.map { p in p.map { values[$0] } } ?? values
      guard stream.unsupportedReason(ordered) == nil else { throw DoesNotFit() }
      let key = ObjectKeySequence.key(for: sequence, squeezed: squeezed)
      if let last = stream.largestKey, key <= last { throw DoesNotFit() }
      sequence += 1
      try stream.append(key: key, values: ordered, sink: &sink)
    }
  }
}

import RealmFormat
import RealmModel
import RealmJSON
import RealmStorage

/// The objects of a JSON Lines file appended to their table as they are decoded
/// (``DataEditor/insert(path:jsonLines:mode:options:)``).
struct StreamedAppend {
  var className: String
  var slot: Int
  var objectsBefore: Int
  var count: Int
  var result: ClusterAppender.Result

  /// Thrown by the consumer of the lines when one does not fit the streamed append.
  private struct DoesNotFit: Error {}

  /// Appends every object of `lines`; nil when one does not fit (the nodes written are then
  /// garbage: the caller drops them).
  static func run<S: NodeSink>(_ lines: ParallelLineDecoder, group: Group, schema: Schema, sink: inout S) throws -> StreamedAppend? {
    var target: Target?
    do {
      try lines.forEachObject { object, _ in
        if target == nil { target = try Target(object.className, group: group, schema: schema) }
        // No copy of the target is bound here: it would make every append copy its buffers.
        guard object.className == target!.cls.name, object.key == nil else { throw DoesNotFit() }
        try target!.append(object, sink: &sink)
      }
      guard var t = target, t.stream.count > 0 else { return nil }
      let result = try t.stream.finish(sequence: t.sequence, sink: &sink)
      return StreamedAppend(className: t.cls.name, slot: t.table.slot, objectsBefore: t.table.objectCount, count: t.stream.count, result: result)
    } catch is DoesNotFit {
      return nil
    } catch is FormatError {
      // A value that does not encode, a repeated primary key: the general path says which.
      return nil
    } catch is InputError {
      // A bad line: the general path reports it (after the checks it makes first).
      return nil
    }
  }

  /// The table the objects go to, its appender and key sequence.
  private struct Target {
    let cls: ObjectSchema
    let table: Table
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
      let input = InsertObject(object: object, source: "", number: 0)
      guard let values = try? input.valuesForNewObject(cls) else { throw DoesNotFit() }
      let ordered = positions.map { p in p.map { values[$0] } } ?? values
      guard stream.unsupportedReason(ordered) == nil else { throw DoesNotFit() }
      let key = ObjectKeySequence.key(for: sequence, squeezed: squeezed)
      if let last = stream.largestKey, key <= last { throw DoesNotFit() }
      sequence += 1
      try stream.append(key: key, values: ordered, sink: &sink)
    }
  }
}

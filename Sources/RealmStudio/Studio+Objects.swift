import HTTPServer
import RealmExport
import RealmJSON
import RealmModel
import RealmQuery
import RealmStorage

/// The endpoints that read objects: a page of a class (by key ranges or positions, filtered,
/// sorted), the count of a filter's matches, one object with its backlinks, and the items of
/// a value the page expands.
extension Studio {
  /// `GET /api/files/ID/classes/C/objects?offset=P|after=K&limit=N[&where=RQL][&sort=PROP&order=asc|desc]`.
  ///
  /// - Without `where` and `sort`: the objects from position `offset` (or after key `after`),
  ///   found by walking one path of the class's tree; `total` is the class's count.
  /// - With `where`: the matches after key `after`, or from position `offset` among the
  ///   matches (the first request past the first page counts the matches once and keeps the
  ///   key of every 256th, so that any page reads at most 256 matches before its own).
  /// - With `sort` (or a query with SORT, DISTINCT or LIMIT): the objects at positions
  ///   `offset` to `offset + limit` in that order, up to ``Options/maxSortedWindow``.
  func page(_ file: StudioFile, className: String, _ request: HTTPRequest) throws -> HTTPResponse {
    let clock = StudioClock()
    let (browser, generation) = try file.browser()
    let cls = try objectSchema(className, browser)
    let limit = min(try StudioBody.int(request, "limit", default: 100, minimum: 1), options.maxPageSize)
    let offset = try StudioBody.int(request, "offset", default: 0)
    let after = try StudioBody.key(request, "after")
    let filter = StudioBody.text(request, "where")
    let sort = StudioBody.text(request, "sort")
    let descending = request.queryValue("order") == "desc"

    var objects: [ObjectBrowser.Object] = []
    var hasMore = false
    var total: Int?
    var position: Int? = after == nil ? offset : nil
    if filter == nil && sort == nil {
      let page = try browser.objects(of: className, from: after.map { .afterKey($0) } ?? .position(offset), limit: limit)
      objects = page.objects
      hasMore = page.hasMore
      total = try browser.objectCount(of: className)
    } else {
      let query = try browser.query(filter ?? "TRUEPREDICATE", on: className)
      if let sort {
        if query.hasDescriptors {
          throw StudioError(
            status: 400, message: "the query sorts, limits or picks distinct objects itself: sort it there, not by a column",
            code: "query")
        }
        guard let property = cls.property(named: sort), property.collection == .single else {
          throw StudioError.badRequest("'\(className)' has no property '\(sort)' to sort by")
        }
        guard offset + limit <= options.maxSortedWindow else {
          throw StudioError(
            status: 400,
            message: "a sorted view reaches the first \(options.maxSortedWindow) objects in its order: sort the other way, or filter, to see the others",
            code: "sortWindow")
        }
        let sorted = try browser.query(
          "\(filter ?? "TRUEPREDICATE") SORT(\(property.name) \(descending ? "DESC" : "ASC")) LIMIT(\(offset + limit + 1))",
          on: className)
        let keys = try browser.keys(of: sorted)
        hasMore = keys.count > offset + limit
        objects = try browser.objects(of: className, keys: Array(keys.dropFirst(offset).prefix(limit)))
        position = offset
        if filter == nil { total = try browser.objectCount(of: className) }
      } else if query.hasDescriptors {
        let keys = try file.resultKeys(for: query.text, className: className, generation: generation) {
          try browser.keys(of: query)
        }
        total = keys.count
        hasMore = keys.count > offset + limit
        objects = try browser.objects(of: className, keys: Array(keys.dropFirst(offset).prefix(limit)))
        position = offset
      } else if let after {
        let page = try browser.objects(matching: query, after: after, limit: limit)
        objects = page.objects
        hasMore = page.hasMore
      } else if offset == 0 {
        let page = try browser.objects(matching: query, after: nil, limit: limit)
        objects = page.objects
        hasMore = page.hasMore
      } else {
        let markers = try file.markers(for: query.text, className: className, generation: generation) {
          let (count, keys) = try browser.positionMarkers(query, stride: StudioFile.markerStride)
          return StudioFile.Markers(count: count, keys: keys)
        }
        total = markers.count
        if offset < markers.count {
          let m = offset / StudioFile.markerStride
          let skip = offset - m * StudioFile.markerStride
          let page = try browser.objects(matching: query, after: markers.keys[m] &- 1, limit: skip + limit)
          objects = Array(page.objects.dropFirst(skip))
          hasMore = page.hasMore
        }
      }
    }

    let encoder = StudioValueEncoder(limits: .cell)
    var w = JSONWriter(indent: 0, capacity: 1 << 16)
    w.beginObject()
    w.member("generation", generation)
    w.member("class", className)
    w.member("offset", position)
    w.member("total", total)
    w.member("hasMore", hasMore)
    w.key("objects")
    w.beginArray()
    for object in objects {
      w.beginObject()
      w.member("key", String(object.key))
      w.key("values")
      w.beginArray()
      for value in object.values { encoder.write(value, to: &w) }
      w.endArray()
      w.endObject()
    }
    w.endArray()
    w.member("ms", clock.milliseconds)
    w.endObject()
    return clock.timed(.json(w.buffer))
  }

  /// `GET /api/files/ID/classes/C/count[?where=RQL]`: the number of objects the query returns
  /// (the class's count without one).
  func count(_ file: StudioFile, className: String, _ request: HTTPRequest) throws -> HTTPResponse {
    let clock = StudioClock()
    let (browser, generation) = try file.browser()
    _ = try objectSchema(className, browser)
    let count: Int
    if let filter = StudioBody.text(request, "where") {
      let query = try browser.query(filter, on: className)
      if query.hasDescriptors {
        count = try file.resultKeys(for: query.text, className: className, generation: generation) {
          try browser.keys(of: query)
        }.count
      } else {
        count = try file.markers(for: query.text, className: className, generation: generation) {
          let (count, keys) = try browser.positionMarkers(query, stride: StudioFile.markerStride)
          return StudioFile.Markers(count: count, keys: keys)
        }.count
      }
    } else {
      count = try browser.objectCount(of: className)
    }
    var w = JSONWriter(indent: 0, capacity: 128)
    w.beginObject()
    w.member("generation", generation)
    w.member("count", count)
    w.member("ms", clock.milliseconds)
    w.endObject()
    return clock.timed(.json(w.buffer))
  }

  /// `GET /api/files/ID/classes/C/objects/KEY`: the object's values (collections to their 50th
  /// item, two levels deep), the canonical JSON of each value (what an edit starts from), and
  /// the objects linking to it, per class and property (their first 100 keys).
  func object(_ file: StudioFile, className: String, key: Int64) throws -> HTTPResponse {
    let (browser, generation) = try file.browser()
    let cls = try objectSchema(className, browser)
    guard let values = try browser.object(of: className, key: key) else {
      throw StudioError.notFound("'\(className)' has no object with key \(key)")
    }
    let backlinks = try browser.backlinks(to: className, key: key)
    let encoder = StudioValueEncoder(limits: .object)
    let canonical = CanonicalEncoder(schema: browser.schema)
    var w = JSONWriter(indent: 0, capacity: 1 << 14)
    w.beginObject()
    w.member("generation", generation)
    w.member("class", className)
    w.member("key", String(key))
    w.key("values")
    w.beginArray()
    for value in values { encoder.write(value, to: &w) }
    w.endArray()
    w.key("canonical")
    w.beginArray()
    for (p, value) in zip(cls.properties, values) {
      var json = JSONWriter(indent: 0, capacity: 64)
      canonical.writeValue(value, of: p, to: &json)
      // A huge value is not offered for editing as text.
      if json.buffer.count <= 1 << 20 { w.value(String(decoding: json.buffer, as: UTF8.self)) } else { w.nullValue() }
    }
    w.endArray()
    w.member("backlinks", objects: backlinks) { w, b in
      w.member("class", b.className)
      w.member("property", b.property)
      w.member("n", b.keys.count)
      w.key("keys")
      w.beginArray()
      for k in b.keys.prefix(100) { w.value(String(k)) }
      w.endArray()
    }
    w.endObject()
    return .json(w.buffer)
  }

  /// `GET /api/files/ID/classes/C/objects/KEY/value?property=P[&path=JSON][&offset=N&limit=M]`:
  /// the items of one value (a list, set, dictionary, embedded object, or a collection inside
  /// a mixed value), from `offset`.
  func value(_ file: StudioFile, className: String, key: Int64, _ request: HTTPRequest) throws -> HTTPResponse {
    let (browser, generation) = try file.browser()
    let cls = try objectSchema(className, browser)
    guard let name = request.queryValue("property"), let index = cls.properties.firstIndex(where: { $0.name == name }) else {
      throw StudioError.badRequest("give 'property', a property of '\(className)'")
    }
    let path = try request.queryValue("path").map { try ValuePath(json: $0) } ?? ValuePath(steps: [])
    let offset = try StudioBody.int(request, "offset", default: 0)
    let limit = min(try StudioBody.int(request, "limit", default: 100, minimum: 1), 1000)
    guard let values = try browser.object(of: className, key: key) else {
      throw StudioError.notFound("'\(className)' has no object with key \(key)")
    }
    guard let value = path.resolve(in: values[index]) else {
      throw StudioError.notFound("'\(className)' object \(key) has nothing at that place of '\(name)'")
    }
    var w = JSONWriter(indent: 0, capacity: 1 << 14)
    w.beginObject()
    w.member("generation", generation)
    w.key("value")
    StudioValueEncoder(limits: .expanded).writeSlice(value, offset: offset, count: limit, to: &w)
    w.endObject()
    return .json(w.buffer)
  }

  /// The class `name` of the file, or the error `dump --class` gives for an unknown one.
  func objectSchema(_ name: String, _ browser: ObjectBrowser) throws -> ObjectSchema {
    try RealmInput.objectSchema(named: name, in: browser.schema, path: browser.file.path)
  }
}

import HTTPServer
import RealmExport
import RealmModel
import RealmQuery
import RealmStorage

/// `GET /api/files/ID/classes/C/export?format=jsonl|csv|sql[&where=RQL]`: a class, or a
/// query's result, as `realmctl dump --class C --where RQL --format F` writes it, streamed as a
/// download (the objects come straight from the file into the answer; memory stays flat).
extension Studio {
  func export(_ file: StudioFile, className: String, _ request: HTTPRequest) throws -> HTTPResponse {
    let formatName = request.queryValue("format") ?? "jsonl"
    let (format, contentType, suffix): (DumpFormat, String, String)
    switch formatName {
    case "jsonl": (format, contentType, suffix) = (.jsonl, "application/x-ndjson; charset=utf-8", "jsonl")
    case "csv": (format, contentType, suffix) = (.csv, "text/csv; charset=utf-8", "csv")
    case "sql": (format, contentType, suffix) = (.sql, "application/sql; charset=utf-8", "sql")
    default: throw StudioError.badRequest("'format' is jsonl, csv or sql")
    }
    let (browser, _) = try file.browser()
    let cls = try objectSchema(className, browser)
    if format == .sql && cls.isEmbedded {
      throw StudioError(
        status: 422,
        message: "class '\(className)' is embedded: the SQL export writes its objects with those of the classes that hold them")
    }
    let filter = StudioBody.text(request, "where")
    let selection = ObjectDump.Selection(className: className, query: filter)
    // Checked here, so that a bad query is an error answer, not a cut download.
    _ = try ObjectDump(file: browser.file, selection: selection)
    let fileHandle = browser.file
    var response = HTTPResponse.stream(contentType: contentType) { write in
      var dump = try ObjectDump(file: fileHandle, selection: selection)
      dump.parallel = nil
      try withoutActuallyEscaping({ (bytes: [UInt8]) throws in try write(bytes[...]) }) { sink in
        var writer: any DumpWriter =
          format == .sql
          ? SQLDumpWriter(sink: sink, options: SQLDumpWriter.Options(classNames: [className], isPartial: filter != nil))
          : format.makeWriter(sink: sink)
        try dump.run(&writer)
      }
    }
    let base = file.name.hasSuffix(".realm") ? String(file.name.dropLast(6)) : file.name
    let name = "\(base)-\(className)\(filter == nil ? "" : "-query").\(suffix)"
    response.setHeader("Content-Disposition", "attachment; filename=\"\(Self.headerSafe(name))\"")
    return response
  }

  /// `name` with only characters a quoted header parameter keeps as they are.
  static func headerSafe(_ name: String) -> String {
    String(name.map { c in c.isASCII && !c.isNewline && c != "\"" && c != "\\" && (c.asciiValue ?? 0) >= 0x20 ? c : "_" })
  }
}

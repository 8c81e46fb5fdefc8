import Foundation
import RealmFormat
import RealmJSON
import RealmModel
import RealmStorage
import RealmTestBytes
import RealmTestSupport
import Testing

/// One schema to render as model code: a fixture file (the first of those sharing its schema)
/// or the file of awkward names made for these tests.
struct ModelCase: CustomStringConvertible, Sendable {
  /// The snapshot's name: the fixture's path with `/` as `__`.
  var name: String
  /// The Realm file.
  var path: String
  /// `--key-file` and the key file, for an encrypted file.
  var keyArguments: [String] = []
  var description: String { name }

  static let languages = ["swift", "kotlin", "java", "javascript", "typescript", "dart", "csharp"]

  /// Every distinct schema among the fixtures, and the awkward names.
  static let all: [ModelCase] = {
    var seen = Set<[UInt8]>()
    var out: [ModelCase] = []
    // Plain files first: an encrypted copy of a fixture adds no schema of its own.
    for fixture in SQLExportCase.all.filter({ $0.keyFile == nil }) + SQLExportCase.all.filter({ $0.keyFile != nil }) {
      let path = fixture.path
      guard var schema = try? RealmFile.open(path: path, key: try fixture.key).group.schema() else { continue }
      schema.fileFormat = 0  // models do not depend on it
      guard seen.insert(SchemaJSON.encode(schema)).inserted else { continue }
      out.append(
        ModelCase(
          name: fixture.realm.replacingOccurrences(of: "/", with: "__"), path: path, keyArguments: fixture.keyArguments))
    }
    if let odd = try? ModelCase.awkwardNamesFile() {
      out.append(ModelCase(name: "awkward-names", path: odd))
    }
    return out
  }()

  /// A file whose names are keywords, not identifiers, or collide once mapped, in some or all
  /// of the languages (made once, with `create`).
  static func awkwardNamesFile() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("realmctl-awkward-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    func p(_ name: String, _ type: String, _ extra: String = "", optional: Bool = false, indexed: Bool = false) -> String {
      "{\"name\": \"\(name)\", \"type\": \"\(type)\"\(extra), \"optional\": \(optional), \"indexed\": \(indexed)}"
    }
    let schema = """
      {"schemaVersion": 12, "fileFormat": 24, "classes": [
       {"name": "Embedded Thing", "embedded": true, "primaryKey": null, "properties": [
         \(p("value", "int")), \(p("schema", "string", optional: true))]},
       {"name": "Person", "embedded": false, "primaryKey": null, "properties": [
         \(p("name", "string", indexed: true)), \(p("Name", "string", optional: true))]},
       {"name": "String", "embedded": false, "primaryKey": null, "properties": [
         \(p("String", "string")), \(p("when", "date", optional: true))]},
       {"name": "class", "embedded": false, "primaryKey": "_id", "properties": [
         \(p("_id", "objectId", indexed: true)), \(p("class", "string")), \(p("Class", "int")),
         \(p("class_", "bool", optional: true)), \(p("first name", "string")), \(p("first_name", "string", optional: true)),
         \(p("1st", "int", optional: true)), \(p("$price", "decimal128")), \(p("größe", "float")),
         \(p("default", "data", optional: true)), \(p("keys", "uuid")), \(p("description", "double", optional: true)),
         \(p("Realm", "mixed", optional: true)), \(p("changes", "int")),
         \(p("constructor", "string", optional: true)), \(p("object", "bool")), \(p("valid", "bool")),
         \(p("friend", "object", ", \"objectType\": \"my class\"", optional: true)),
         \(p("people", "list", ", \"objectType\": \"Person\"")),
         \(p("others", "set", ", \"objectType\": \"person\"")),
         \(p("things", "dictionary", ", \"objectType\": \"Embedded Thing\"", optional: true)),
         \(p("thing", "object", ", \"objectType\": \"Embedded Thing\"", optional: true)),
         \(p("tags", "list", ", \"objectType\": \"string\"", optional: true)),
         \(p("anything", "dictionary", ", \"objectType\": \"mixed\"", optional: true)),
         \(p("strings", "list", ", \"objectType\": \"String\""))]},
       {"name": "my class", "embedded": false, "primaryKey": null, "properties": [
         \(p("x", "int"))]},
       {"name": "person", "embedded": false, "primaryKey": "id", "properties": [
         \(p("id", "int", indexed: true))]},
       {"name": "Ünïcode", "embedded": false, "primaryKey": null, "properties": [
         \(p("naïve", "string"))]}
      ]}
      """
    let schemaPath = dir.appendingPathComponent("schema.json")
    try Data(schema.utf8).write(to: schemaPath)
    let dataPath = dir.appendingPathComponent("data.jsonl")
    try Data().write(to: dataPath)
    let out = dir.appendingPathComponent("awkward.realm").path
    let run = CommandRun(["create", out, "--schema", schemaPath.path, "--data", dataPath.path])
    guard run.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["message": run.errors]) }
    return out
  }

  /// `schema --format <language>` of the file.
  func render(_ language: String) -> String {
    let run = CommandRun(["schema", path, "--format", language] + keyArguments)
    return run.status == 0 ? run.text : "exit \(run.status): \(run.errors)"
  }

  /// The file's schema document.
  var schemaJSON: JSONValue {
    get throws { try JSONParser.parse(CommandRun(["schema", path, "--format", "json"] + keyArguments).output) }
  }

  /// The class names of the schema, in order.
  var classNames: [String] {
    get throws {
      guard case .array(let classes)? = try schemaJSON["classes"] else { return [] }
      return classes.compactMap { if case .string(let n)? = $0["name"] { return n } else { return nil } }
    }
  }
}

/// `schema --format swift|kotlin|java|javascript|typescript|dart|csharp` for every distinct
/// schema of the fixtures and for awkward names: the outputs equal their reviewed snapshots
/// (`Snapshots/models`), the Java output compiles against a stub of Realm Java and declares the
/// file's schema (read back by reflection), the JavaScript output passes `node --check` and,
/// loaded against a stub `realm` module, declares the file's schema (issue 11, "done when" 3).
@Suite struct ModelCodeTests {
  @Test func coversEveryDistinctFixtureSchemaAndTheAwkwardNames() {
    let names = ModelCase.all.map(\.name)
    CommandTestSupport.expectCases(names, atLeast: 20, including: [
      "alltypes__before.realm", "embedded__before.realm", "nested-links__before.realm", "encrypted__big.realm",
      "awkward-names",
    ])
    // No snapshot is left over from a schema no longer rendered.
    let dir = Snapshot.packageRoot.appendingPathComponent("Tests/RealmCLITests/Snapshots/models")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
    expectEqual(Set(files), Set(names.map { $0 + ".txt" }))
  }

  @Test(arguments: ModelCase.all)
  func everyLanguageMatchesItsSnapshot(_ model: ModelCase) throws {
    let text = ModelCase.languages.map { "==== \($0) ====\n" + model.render($0) }.joined(separator: "\n")
    try Snapshot.assertMatches(text, named: "models/\(model.name).txt")
  }

  @Test(arguments: ModelCase.all)
  func typeScriptDeclaresTheSameSchemaObjectsAsJavaScript(_ model: ModelCase) {
    func schemaObjects(_ source: String) -> [String] {
      var out: [String] = []
      var current: [Substring]?
      for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("  static schema") {
          current = []
        } else if line == "  };" {
          if let c = current { out.append(c.joined(separator: "\n")) }
          current = nil
        } else if current != nil {
          current!.append(line)
        }
      }
      return out
    }
    let js = schemaObjects(model.render("javascript"))
    #expect(!js.isEmpty || (try? model.classNames.isEmpty) == true)
    expectEqual(js, schemaObjects(model.render("typescript")))
  }

  @Test(
    ExternalTool.required(ExternalTool.javac, "javac"), ExternalTool.required(ExternalTool.java, "java"))
  func javaCompilesAgainstRealmJavaAndDeclaresTheFileSchema() throws {
    try CommandTestSupport.inScratchDirectory { dir in
      let src = dir.appendingPathComponent("src")
      var sources = try Self.files(under: Self.stub("java"), suffix: ".java")
      var checks: [(String, ModelCase)] = []
      for (n, model) in ModelCase.all.enumerated() {
        let package = "models\(n)"
        var classes: [String] = []
        for (file, body) in Self.javaFiles(model.render("java")) {
          let url = src.appendingPathComponent(package).appendingPathComponent(file)
          try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
          try Data(("package \(package);\n" + body).utf8).write(to: url)
          sources.append(url.path)
          classes.append(String(file.dropLast(".java".count)))
        }
        checks.append(("\(package):" + classes.joined(separator: ","), model))
      }
      let classesDir = dir.appendingPathComponent("classes")
      let javac = try #require(ExternalTool.javac).run(["-nowarn", "-encoding", "UTF-8", "-d", classesDir.path] + sources)
      try #require(javac.status == 0, "javac: \(javac.stderr.prefix(3000))")
      let java = try #require(ExternalTool.java).run(
        ["-cp", classesDir.path, "realmctltest.SchemaOf"] + checks.map(\.0))
      try #require(java.status == 0, "java: \(java.stderr.prefix(3000))")
      let lines = String(decoding: java.stdout, as: UTF8.self).split(separator: "\n")
      expectEqual(lines.count, checks.count)
      for (line, (_, model)) in zip(lines, checks) {
        let document = String(line.split(separator: "\t", maxSplits: 1).last ?? "")
        // Realm Java has no full-text index (its models say so in a comment).
        try Self.expectSameSchema(declared: document, by: model, language: "java", fullTextDeclaredAs: .bool(false))
      }
    }
  }

  /// Every TypeScript output, compiled together by `tsc --strict` against the declarations of
  /// a stub `realm` package (`ModelStubs/typescript`).
  @Test(ExternalTool.required(ExternalTool.tsc, "tsc (TypeScript)"))
  func typeScriptCompilesAgainstRealmJSTypes() throws {
    let tsc = try #require(ExternalTool.tsc)
    try CommandTestSupport.inScratchDirectory { dir in
      let modules = dir.appendingPathComponent("node_modules")
      try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: Self.stub("typescript/realm"), to: modules.appendingPathComponent("realm"))
      let files = try Self.writeModels("typescript", to: dir, suffix: ".ts").map(\.lastPathComponent)
      let run = try tsc.run(
        ["--noEmit", "--strict", "--target", "es2020", "--module", "es2020", "--moduleResolution", "node"] + files,
        in: dir)
      expectEqual(run.status, 0, "tsc: \(String(decoding: run.stdout, as: UTF8.self).prefix(3000))\(run.stderr.prefix(1000))")
    }
  }

  /// Every Kotlin output, compiled together by `kotlinc` (each in its own package) against the
  /// declarations of Realm Kotlin and its BSON types (`ModelStubs/kotlin`).
  @Test(ExternalTool.required(ExternalTool.kotlinc, "kotlinc (Debian's kotlin package)"))
  func kotlinCompilesAgainstRealmKotlin() throws {
    let kotlinc = try #require(ExternalTool.kotlinc)
    try CommandTestSupport.inScratchDirectory { dir in
      let models = try Self.writeModels("kotlin", to: dir, suffix: ".kt") { n, code in "package models\(n)\n" + code }
      let sources = try Self.files(under: Self.stub("kotlin"), suffix: ".kt") + models.map(\.path)
      let run = try kotlinc.run(["-nowarn", "-d", dir.appendingPathComponent("classes").path] + sources, in: dir)
      expectEqual(run.status, 0, "kotlinc: \(run.stderr.prefix(3000))")
    }
  }

  /// Dart and C# have no compiler on the build machines (docs/testing.md): their outputs are
  /// checked against the reviewed snapshots only. These tests say so in every run.
  @Test(ExternalTool.required(ExternalTool.dart, "dart"), .disabled("no Realm Dart stub yet: Dart output is checked against its snapshots only"))
  func dartCompiles() {}

  @Test(ExternalTool.required(ExternalTool.dotnet, "dotnet"), .disabled("no Realm .NET stub yet: C# output is checked against its snapshots only"))
  func cSharpCompiles() {}

  @Test(ExternalTool.required(ExternalTool.node, "node"))
  func javaScriptLoadsAgainstRealmJSAndDeclaresTheFileSchema() throws {
    let node = try #require(ExternalTool.node)
    try CommandTestSupport.inScratchDirectory { dir in
      let stubs = Self.stub("node")
      let modules = dir.appendingPathComponent("node_modules/realm")
      try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
      for file in ["package.json", "index.js"] {
        try FileManager.default.copyItem(
          at: stubs.appendingPathComponent("realm/\(file)"), to: modules.appendingPathComponent(file))
      }
      try FileManager.default.copyItem(
        at: stubs.appendingPathComponent("check-schema.mjs"), to: dir.appendingPathComponent("check-schema.mjs"))
      let files = try Self.writeModels("javascript", to: dir, suffix: ".mjs")
      for (url, model) in zip(files, ModelCase.all) {
        let check = try node.run(["--check", url.path])
        expectEqual(check.status, 0, "node --check \(model): \(check.stderr)")
      }
      let run = try node.run(["check-schema.mjs"] + files.map(\.path), in: dir)
      try #require(run.status == 0, "node: \(run.stderr.prefix(3000))")
      let lines = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n")
      expectEqual(lines.count, ModelCase.all.count)
      for (line, model) in zip(lines, ModelCase.all) {
        let document = String(line.split(separator: "\t", maxSplits: 1).last ?? "")
        try Self.expectSameSchema(declared: document, by: model, language: "javascript")
      }
    }
  }

  @Test(ExternalTool.required(ExternalTool.swiftc, "swiftc"))
  func swiftTypechecksAgainstRealmSwift() throws {
    try CommandTestSupport.inScratchDirectory { dir in
      // Each file's models in a namespace of their own, all typechecked in one run.
      var source = "import Foundation\n"
      for (n, model) in ModelCase.all.enumerated() {
        let body = model.render("swift").split(separator: "\n", omittingEmptySubsequences: false)
          .filter { !$0.hasPrefix("import ") }.map { "  " + $0 }.joined(separator: "\n")
        source += "enum Models\(n) {\n\(body)\n}\n"
      }
      let models = dir.appendingPathComponent("Models.swift")
      try Data(source.utf8).write(to: models)
      let stub = Self.stub("swift/RealmSwiftStub.swift")
      let run = try #require(ExternalTool.swiftc).run(["-typecheck", "-parse-as-library", stub.path, models.path])
      expectEqual(run.status, 0, "swiftc: \(run.stderr.prefix(3000))")
    }
  }

  /// `json` with every `"indexed": old` member set to `new`.
  static func replacing(_ old: JSONValue, with new: JSONValue, in json: JSONValue) -> JSONValue {
    switch json {
    case .object(let members):
      return .object(members.map { $0.key == "indexed" && $0.value == old ? JSONMember("indexed", new) : JSONMember($0.key, replacing(old, with: new, in: $0.value)) })
    case .array(let items): return .array(items.map { replacing(old, with: new, in: $0) })
    default: return json
    }
  }

  /// A file or directory of the compiler stubs (`Tests/RealmCLITests/ModelStubs`).
  static func stub(_ relative: String) -> URL {
    Snapshot.packageRoot.appendingPathComponent("Tests/RealmCLITests/ModelStubs/\(relative)")
  }

  /// Writes every model case's output in `language` (through `wrap`, given the case's number)
  /// into `dir` as `models<n><suffix>`, in the order of `ModelCase.all`; returns the files.
  static func writeModels(
    _ language: String, to dir: URL, suffix: String, _ wrap: (Int, String) -> String = { $1 }
  ) throws -> [URL] {
    try ModelCase.all.enumerated().map { n, model in
      let url = dir.appendingPathComponent("models\(n)\(suffix)")
      try Data(wrap(n, model.render(language)).utf8).write(to: url)
      return url
    }
  }

  /// The `// File: X.java` parts of the Java output.
  static func javaFiles(_ output: String) -> [(String, String)] {
    var files: [(String, String)] = []
    for part in output.components(separatedBy: "\n// File: ").dropFirst() {
      guard let newline = part.firstIndex(of: "\n") else { continue }
      files.append((String(part[..<newline]), String(part[part.index(after: newline)...])))
    }
    return files
  }

  static func files(under dir: URL, suffix: String) throws -> [String] {
    let all = FileManager.default.enumerator(atPath: dir.path)?.allObjects as? [String] ?? []
    return all.filter { $0.hasSuffix(suffix) }.map { dir.appendingPathComponent($0).path }
  }

  /// Compares the schema a compiled or loaded model declares with the file's; in a language
  /// whose SDK has no full-text index, a full-text index is expected declared as
  /// `fullTextDeclaredAs`.
  static func expectSameSchema(
    declared: String, by model: ModelCase, language: String, fullTextDeclaredAs: JSONValue? = nil
  ) throws {
    var expected = try model.schemaJSON
    if let fullTextDeclaredAs { expected = Self.replacing(.string("full-text"), with: fullTextDeclaredAs, in: expected) }
    var actual = try JSONParser.parse(declared)
    if case .object(var members) = actual {
      members.removeAll { $0.key == "schemaVersion" || $0.key == "fileFormat" }
      members.insert(JSONMember("fileFormat", expected["fileFormat"] ?? .null), at: 0)
      members.insert(JSONMember("schemaVersion", expected["schemaVersion"] ?? .null), at: 0)
      actual = .object(members)
    }
    let problems = DumpComparison.compareSchemas(expected: expected, actual: actual)
    #expect(problems.isEmpty, "\(language) models of \(model): \(problems.prefix(8).joined(separator: "\n"))")
  }
}

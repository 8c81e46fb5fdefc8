import Foundation
import RealmJSON
import RealmTestBytes
import RealmTestSupport
import Testing

/// `realmctl schema`: formats, `--class`, and the unknown-class error.
@Suite struct SchemaCommandTests {
  @Test func classOptionPrintsOnlyThatClass() throws {
    let answers = try RealmAnswers("to-embedded-ok")
    let run = CommandRun(["schema", fixturePath("to-embedded-ok/before.realm"), "--format", "json", "--class", "Person"])
    expectEqual(run.status, 0)
    let person = try #require(answers.classes.first { $0["name"] == .string("Person") })
    let expected = JSONValue.object([
      JSONMember("schemaVersion", try #require(answers.schema["schemaVersion"])),
      JSONMember("fileFormat", try #require(answers.schema["fileFormat"])),
      JSONMember("classes", .array([person])),
    ])
    let problems = DumpComparison.compareSchemas(expected: expected, actual: try JSONParser.parse(run.output))
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func unknownClassIsADataErrorWithASuggestion() {
    let path = fixturePath("to-embedded-ok/before.realm")
    let run = CommandRun(["schema", path, "--class", "Persn"])
    expectEqual(run.status, 65)
    #expect(run.output.isEmpty)
    expectEqual(run.errors, "Error: class 'Persn' not found in '\(path)' (did you mean 'Person'?)\n")
    // Case slips are suggested too; names far from every class get no suggestion.
    #expect(CommandRun(["schema", path, "--class", "person"]).errors.contains("(did you mean 'Person'?)"))
    let far = CommandRun(["schema", path, "--class", "Invoice"])
    expectEqual(far.status, 65)
    expectEqual(far.errors, "Error: class 'Invoice' not found in '\(path)'\n")
  }

  @Test func textFormatListsEveryPropertyWithItsType() throws {
    let answers = try RealmAnswers("embedded")
    let run = CommandRun(["schema", fixturePath("embedded/before.realm")])
    expectEqual(run.status, 0)
    let lines = run.text.split(separator: "\n").map(String.init)
    expectEqual(lines.first, "schema version 1, file format 24, 4 classes")
    #expect(lines.contains("Address (embedded, \(185) objects)"))
    #expect(lines.contains("Contact (primary key _id, \(answers.lines(of: "Contact").count) objects)"))
    for cls in answers.classes {
      guard case .array(let properties)? = cls["properties"] else { continue }
      for p in properties {
        guard case .string(let name)? = p["name"] else { continue }
        #expect(lines.contains { $0.hasPrefix("  \(name) ") }, "\(name)")
      }
    }
    #expect(lines.contains { $0.hasPrefix("  phones ") && $0.hasSuffix("Phone[]") })
    #expect(lines.contains { $0.hasPrefix("  byLabel ") && $0.hasSuffix("Address?{}") })
  }

  @Test func swiftFormatDeclaresRealmSwiftModels() {
    let run = CommandRun(["schema", fixturePath("embedded/before.realm"), "--format", "swift"])
    expectEqual(run.status, 0)
    #expect(run.text.contains("import RealmSwift\n"))
    #expect(run.text.contains("class Contact: Object {\n"))
    #expect(run.text.contains("class Address: EmbeddedObject {\n"))
    #expect(run.text.contains("@Persisted(primaryKey: true) var _id: ObjectId\n"))
    #expect(run.text.contains("@Persisted var phones: List<Phone>\n"))
    #expect(run.text.contains("@Persisted var byLabel: Map<String, Address?>\n"))
    let one = CommandRun(["schema", fixturePath("embedded/before.realm"), "--format", "swift", "--class", "Geo"])
    #expect(one.text.contains("class Geo: EmbeddedObject {\n"))
    #expect(!one.text.contains("class Contact"))
  }
}

import Foundation
import RealmExport
import RealmMigration
import RealmStorage

// Migrates a copy of the file to schema version 1: `name` becomes `fullName`, `email` is new.
let path = CommandLine.arguments.dropFirst().first ?? "Examples/seed/tutorial.realm"
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("realm-example-\(UUID())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let copy = folder.appendingPathComponent("copy.realm").path
try FileManager.default.copyItem(atPath: path, toPath: copy)

let plan = try PlanDecoder.decode(Array("""
  {"schemaVersion": 1,
   "schema": [{"name": "User", "properties": {"fullName": "string", "age": "int", "email": "string?"}}],
   "migrations": [{"version": 1, "steps": [{"op": "renameProperty", "class": "User", "from": "name", "to": "fullName"}]}]}
  """.utf8))
let result = try Migrator.migrate(path: copy, plan: plan)
print("\(result.method.rawValue), \(result.writePath.rawValue): schema version \(result.toVersion)")
print(SchemaTextFormatter.render(try RealmFile.open(path: copy).group.schema()))

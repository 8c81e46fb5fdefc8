import Foundation
import RealmEdit

// Edits a copy of the file: two users inserted, a birthday for every Grace, the children deleted.
let path = CommandLine.arguments.dropFirst().first ?? "Examples/seed/tutorial.realm"
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("realm-example-\(UUID())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let copy = folder.appendingPathComponent("copy.realm").path
try FileManager.default.copyItem(atPath: path, toPath: copy)

let newUsers = folder.appendingPathComponent("new-users.jsonl").path
try """
  {"$class":"User","name":"Ada Lovelace","age":36}
  {"$class":"User","name":"Alan Kay","age":85}

  """.write(toFile: newUsers, atomically: true, encoding: .utf8)
let inserted = try DataEditor.insert(path: copy, jsonLines: newUsers, mode: .insert)
let updated = try DataEditor.update(
  path: copy, className: "User", assignments: [.init(property: "age", expression: "old.age + 1")],
  filter: "name BEGINSWITH 'Grace'")
let deleted = try DataEditor.delete(path: copy, className: "User", filter: "age < 10")
for result in [inserted, updated, deleted] {
  let users = result.classes[0]
  print(
    "\(users.inserted) inserted, \(users.updated) updated, \(users.deleted) deleted",
    "(write path \(result.writePath.rawValue)): \(users.objectsAfter) users")
}

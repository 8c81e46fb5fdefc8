import Foundation
import RealmDiff
import RealmEdit
import RealmStorage

// Compares the file with a copy in which one user was renamed, as `realmctl diff` prints it.
let path = CommandLine.arguments.dropFirst().first ?? "Examples/seed/tutorial.realm"
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("realm-example-\(UUID())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let copy = folder.appendingPathComponent("copy.realm").path
try FileManager.default.copyItem(atPath: path, toPath: copy)
_ = try DataEditor.update(
  path: copy, className: "User", assignments: [.init(property: "name", expression: "'Ada Lovelace'")],
  filter: "name == 'Radia Allen'")

let diff = try RealmDiff(old: try RealmFile.open(path: path), new: try RealmFile.open(path: copy))
var writer = DiffTextWriter(diff: diff, color: false) { bytes in print(String(decoding: bytes, as: UTF8.self), terminator: "") }
try diff.run { change in try writer.write(change) }
try writer.finish()

import Foundation
import RealmModel
import RealmRewrite
import RealmStorage

// Converts a copy of the file to format 22 (what Realm Swift 10.8-10.34 opens), then compacts it.
let path = CommandLine.arguments.dropFirst().first ?? "Examples/seed/tutorial.realm"
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("realm-example-\(UUID())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let copy = folder.appendingPathComponent("copy.realm").path
try FileManager.default.copyItem(atPath: path, toPath: copy)

var options = UpgradeOptions()
options.fileFormat = .v22
let converted = try Upgrader.upgrade(path: copy, options: options)
let classes = converted.classes.map { "\($0.name) \($0.objects)" }.joined(separator: ", ")
print("converted from format \(converted.fromFormat) to \(converted.toFormat): \(classes)")

let compacted = try Compaction.compact(path: copy)
print("compacted in format \(compacted.toFormat): \(compacted.sizeBefore) -> \(compacted.sizeAfter) bytes")
print("the copy opens as format \(try RealmFile.open(path: copy).group.fileFormat)")

import RealmFormat
import RealmStorage

// Walks the objects of every class in key order, as values of Realm's types.
let path = CommandLine.arguments.dropFirst().first ?? "Examples/seed/tutorial.realm"
let group = try RealmFile.open(path: path).group
let schema = try group.schema()

for objectSchema in schema.classes where !objectSchema.isEmbedded {
  guard let table = group.table(forClass: objectSchema.name) else { continue }
  print("\(objectSchema.name): \(objectSchema.properties.map(\.name).joined(separator: ", "))")
  try group.forEachObject(in: table) { key, values in
    if key < 3 { print("  \(key): \(values.map { "\($0)" }.joined(separator: ", "))") }
  }
}

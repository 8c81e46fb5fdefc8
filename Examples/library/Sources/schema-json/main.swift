import RealmJSON
import RealmModel
import RealmStorage

// Prints the file's schema as schema JSON, then a line of the dump format decoded and written again.
let path = CommandLine.arguments.dropFirst().first ?? "Examples/seed/tutorial.realm"
let schema = try RealmFile.open(path: path).group.schema()
print(String(decoding: SchemaJSON.encode(schema), as: UTF8.self))

let line = #"{"age":36,"$key":7,"name":"Ada Lovelace","$class":"User"}"#
let object = try CanonicalDecoder(schema: schema).decodeLine(Array(line.utf8), line: 1)
let user = schema.objectSchema(named: object.className)!
for (property, value) in zip(user.properties, object.values) {
  print("\(property.name): \(CanonicalEncoder(schema: schema).text(of: value))")
}
var writer = JSONWriter(indent: 0, capacity: 64)
CanonicalEncoder(schema: schema).appendLine(user, key: object.key ?? 0, values: object.values, to: &writer)
print(String(decoding: writer.buffer, as: UTF8.self), terminator: "")

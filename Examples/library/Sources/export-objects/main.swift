import RealmExport
import RealmQuery
import RealmStorage

// Prints the schema as `realmctl schema` does, then the users a query selects as JSON Lines.
let path = CommandLine.arguments.dropFirst().first ?? "Examples/seed/tutorial.realm"
let file = try RealmFile.open(path: path)
let schema = try file.group.schema()
print(SchemaTextFormatter.render(schema))

var dump = try ObjectDump(file: file, selection: ObjectDump.Selection(className: "User"))
dump.query = try RealmQuery("name BEGINSWITH 'Grace' SORT(age ASC)", className: "User", schema: schema)
var writer = JSONLinesDumpWriter { bytes in print(String(decoding: bytes, as: UTF8.self), terminator: "") }
try dump.run(&writer)

import RealmQuery
import RealmStorage

// The five oldest users over 60: compiled against the file's schema, run as Realm runs it.
let path = CommandLine.arguments.dropFirst().first ?? "Examples/seed/tutorial.realm"
let group = try RealmFile.open(path: path).group
let schema = try group.schema()
let query = try RealmQuery("age > 60 SORT(age DESC) LIMIT(5)", className: "User", schema: schema, group: group)

guard let table = group.table(forClass: "User"), let user = schema.objectSchema(named: "User") else {
  fatalError("\(path) has no class User")
}
for key in try query.objectKeys(in: group) {
  let values = try group.object(in: table, key: key) ?? []
  print(key, zip(user.properties, values).map { "\($0.name)=\($1)" }.joined(separator: " "))
}

import RealmModel

// Compares an app's schema with a file's, in Realm's own words (no file needed).
let user = ObjectSchema(name: "User", properties: [
  Property(name: "name", type: .string),
  Property(name: "age", type: .int),
])
let appUser = ObjectSchema(name: "User", properties: [
  Property(name: "name", type: .string, isIndexed: true),
  Property(name: "age", type: .int, isOptional: true),
  Property(name: "email", type: .string, isOptional: true),
])
let file = Schema(schemaVersion: 0, fileFormat: 24, classes: [user])
let app = Schema(schemaVersion: 0, fileFormat: 24, classes: [appUser])
for change in SchemaComparison.changes(from: file, to: app) {
  print(change.needsMigration ? "needs a migration:" : "no migration needed:", change.realmMessage)
}

import RealmStorage

// Opens a Realm file read-only (no lock file is created) and prints what `realmctl open` shows.
let path = CommandLine.arguments.dropFirst().first ?? "Examples/seed/tutorial.realm"
let file = try RealmFile.open(path: path)
let summary = try FileSummary(file)

print("file format: \(FileFormatDescription.text(summary.fileFormat))")
print("schema version \(summary.schemaVersion.map(String.init) ?? "none"), \(summary.size) bytes")
print("history: \(FileSummary.name(of: summary.historyType))")
for table in summary.classes {
  print("class \(table.name): \(table.objects) objects")
}

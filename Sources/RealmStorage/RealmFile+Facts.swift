import RealmFormat
import RealmModel

/// What a command shows of an open file without decoding its objects, so code above the
/// storage layer needs no `Group` of RealmFormat for it.
extension RealmFile {
  /// The file format version of the live snapshot.
  public var fileFormat: Int { group.fileFormat }

  /// The number of objects of each class (names without `class_`).
  public var objectCounts: [String: Int] {
    var counts: [String: Int] = [:]
    for table in group.tables {
      if let name = table.className { counts[name] = table.objectCount }
    }
    return counts
  }

  /// The number of objects of class `name`, nil when the file has no such class.
  public func objectCount(ofClass name: String) -> Int? {
    group.table(forClass: name)?.objectCount
  }

  /// The structural check of `open --check`: every node reachable once, the free lists, the
  /// clusters, links and backlinks (`Group.check(maxProblems:)`); empty for a sound file.
  public func check(maxProblems: Int = 1000) -> [IntegrityProblem] {
    group.check(maxProblems: maxProblems)
  }
}

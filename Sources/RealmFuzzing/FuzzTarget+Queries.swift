import Foundation
import RealmCLI
import RealmMigration

extension FuzzTarget {
  /// The input is a migration plan (text starting with `{`) or a `--where` query (anything
  /// else), run against small fixture files of several schemas.
  ///
  /// A plan is decoded, compiled against each file (its expressions and `where` filters with
  /// it) and executed as `migrate --dry-run` does: every object goes through the steps into a
  /// file that is measured, not written. `exec` steps are dropped (they run programs). A query
  /// is compiled for every class of every file and, when it compiles, evaluated on every
  /// object by `dump --class C --where QUERY`. Each must succeed or fail with an error the
  /// command layer maps to 64 (a query that does not compile) or 65, never to 70.
  public static let queries = FuzzTarget(
    name: "queries",
    summary: "a migration plan (JSON) or a --where query, against fixture files of several schemas",
    run: { input in
      let files = QueryFiles.shared.paths
      guard input.first(where: { !(0x09...0x0D).contains($0) && $0 != 0x20 }) == UInt8(ascii: "{") else {
        return runQuery(String(decoding: input, as: UTF8.self), on: files)
      }
      return runPlan(input, on: files)
    },
    seeds: { resources in try querySeeds(resources) })

  static func runPlan(_ input: [UInt8], on files: [(path: String, classes: [String])]) -> [String] {
    var plan: MigrationPlan
    do {
      plan = try PlanDecoder.decode(input)
    } catch {
      return []  // a MigrationError with the JSON path: what `migrate` prints (exit 65)
    }
    for i in plan.migrations.indices {
      plan.migrations[i].steps.removeAll {
        if case .exec = $0.operation { return true } else { return false }
      }
    }
    var options = MigrationOptions()
    options.dryRun = true
    var problems: [String] = []
    for file in files {
      do {
        _ = try Migrator.migrate(path: file.path, plan: plan, options: options)
      } catch {
        if QueryFiles.isInternal(error) {
          problems.append("migrate --dry-run on \(file.path): internal error: \(error)")
        }
      }
    }
    return problems
  }

  static func runQuery(_ query: String, on files: [(path: String, classes: [String])]) -> [String] {
    var problems: [String] = []
    for file in files {
      for name in file.classes {
        let run = CommandProbe(["dump", file.path, "--class", name, "--where", query, "--format", "jsonl"])
        problems += run.problems(allowed: [0, 64, 65])
      }
    }
    return problems
  }

  /// Every plan of `Tests/Fixtures` and `Examples/`, and queries covering the language.
  static func querySeeds(_ resources: FuzzResources) throws -> [FuzzSeed] {
    var seeds: [FuzzSeed] = []
    for (url, _) in resources.seedFiles(where: { $0.hasSuffix("plan.json") }) {
      seeds.append(resources.seed(url, bytes: try resources.bytes(url)))
    }
    for (n, query) in seedQueries.enumerated() {
      seeds.append(FuzzSeed(name: "query-\(n)", bytes: Array(query.utf8)))
    }
    return seeds
  }

  /// Queries on the classes of ``QueryFiles`` (`AllTypes`, `Person`, `User`, `Contact`).
  static let seedQueries = [
    "age >= 18", "age > 10 AND age < 60", "name BEGINSWITH[c] 'b'", "name CONTAINS 'a' OR age == 0",
    "NOT (age < 30)", "name == nil", "name != ''", "name LIKE '*a?e*'", "name MATCHES '^[A-Z].*'",
    "age IN {1, 2, 3}", "age BETWEEN {10, 20}", "name ENDSWITH[cd] 'é'", "firstName == lastName",
    "firstName + ' ' + lastName == 'a b'", "age * 2 + 1 > 50 ? true : false", "email ?? 'none' == 'none'",
    "TRUEPREDICATE", "FALSEPREDICATE", "_id != nil", "addresses.@count > 0", "address.city == 'x'",
    "ANY addresses.city == 'x'", "ALL addresses.city != ''", "NONE addresses.city == ''",
    "intList.@sum > 3", "intList.@avg >= 1.5", "intList.@min < 0", "intList.@max > 100",
    "stringSet.@count == 2", "stringDict['a'] == 'b'", "stringDict.@keys == 'a'", "mixed == 1",
    "mixed.@type == 'string'", "date > T2020-01-01@00:00:00", "decimal == 1.5", "objectId == oid(5f0000000000000000000000)",
    "uuid == uuid(00000000-0000-0000-0000-000000000000)", "binary == B64\"AAE=\"", "link.name == 'x'",
    "linkList.@count >= 1 && !(bool == true)", "double < -0.0 || float > 1e10", "SUBQUERY(addresses, $a, $a.city == 'x').@count > 0",
    "lower(name) == 'x'", "length(name) > 3", "name[0] == 'a'", "int % 7 == 3", "abs(int) > 5",
  ]
}

/// The files plans and queries run against: small fixtures of several schemas, copied into
/// the scratch directory once per process (migrations take their lock file beside them).
final class QueryFiles: Sendable {
  static let shared = QueryFiles(resources: .checkout)

  /// The files and their top-level classes.
  let paths: [(path: String, classes: [String])]

  init(resources: FuzzResources) {
    var paths: [(path: String, classes: [String])] = []
    var inputs: [(String, [UInt8])] = []
    for fixture in ["person-add-email", "user-tutorial", "to-embedded-ok", "nested-links"] {
      if let bytes = try? resources.bytes(resources.fixture("\(fixture)/before.realm")) {
        inputs.append((fixture, bytes))
      }
    }
    if let alltypes = try? CutDownFiles.build(resources).first(where: { $0.0.hasPrefix("alltypes") }) {
      inputs.append(("alltypes", alltypes.1))
    }
    for (name, bytes) in inputs {
      let path = ScratchDirectory.shared.write(bytes, to: "query-\(name).realm")
      paths.append((path, FuzzTarget.readerClassNames(path)))
    }
    self.paths = paths
  }

  /// True for the errors `migrate` would report as an internal error (exit 70).
  static func isInternal(_ error: any Error) -> Bool { ExitCode.forError(error) == .software }
}

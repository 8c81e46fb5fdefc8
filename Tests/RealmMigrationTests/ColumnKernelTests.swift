import RealmFormat
import RealmModel
import RealmQuery
import RealmTestSupport
import Testing
@testable import RealmMigration

/// Column kernels (Expression/Kernels): for every object of a batch a kernel gives exactly the
/// value the expression's closure gives, or it throws ``KernelFallback`` (and then some object's
/// closure must throw too). Checked differentially against
/// the closures on objects chosen to reach nulls, overflow, unicode, mixed values and columns
/// not read, with the columns both typed and as plain ``RealmValue``s.
@Suite struct ColumnKernelTests {
  typealias F = ExpressionFixture

  /// Objects with varied values: nulls in the optional properties, extremes, unicode.
  static let objects: [[RealmValue]] = [
    F.values(),
    F.values(["firstName": .string("王"), "lastName": .string("é\u{301}"), "age": .int(-7), "nickname": .string("Niki")]),
    F.values(["age": .int(Int64.max - 3), "score": .double(-0.0), "weight": .float(2.5), "maybeAge": .int(12)]),
    F.values(["age": .int(0), "score": .double(.infinity), "active": .bool(false), "anything": .string("x")]),
    F.values(["age": .int(Int64.min), "score": .double(.nan), "anything": .double(2.25), "maybeAge": .int(-1)]),
    F.values(["firstName": .string(""), "lastName": .string(String(repeating: "a", count: 70)), "anything": .null]),
  ]

  static let expressions = [
    "old.firstName + ' ' + old.lastName",
    "old.lastName + ' #' + string(old.age)",
    "string(old.age)", "string(old.score)", "string(old.maybeAge)", "string(old.active)", "string(old.anything)",
    "old.nickname + '!'", "old.nickname ?? old.firstName", "old.maybeAge ?? 0",
    "old.age + 1", "old.age - 5", "old.age * 2", "old.age / 2", "old.age % 7", "old.age / old.maybeAge", "-old.age",
    "old.score * old.age", "old.age + old.score", "old.score / 0", "old.score % 2", "old.weight + 1", "old.weight * old.score",
    "old.maybeAge + old.age", "old.anything + 1", "old.anything + 'y'",
    "old.age > 30 && old.active", "!old.active || old.age < 3", "old.age >= 18 ? 'adult' : 'minor'",
    "old.nickname == null", "old.firstName == 'Ada'",
    "int(old.firstName, -1)", "double(old.age)", "int(old.score, 0)", "int(old.anything)", "bool(old.age)",
    "upper(old.firstName)", "length(old.lastName)", "substring(old.lastName, 0, 1)",
    "[old.age, old.maybeAge]", "42", "'constant'", "null",
  ]

  /// The objects as a batch's columns; `typed` gives scalar columns their typed form.
  static func columns(_ objects: [[RealmValue]], typed: Bool, read: Set<Int>? = nil) -> [ColumnValues?] {
    (0..<F.person.properties.count).map { c in
      guard read?.contains(c) ?? true else { return nil }
      let values = objects.map { $0[c] }
      return typed ? ColumnValues.typed(values) : .values(values)
    }
  }

  /// Checks one expression's kernel against its closure on `objects`.
  func check(_ source: String, objects: [[RealmValue]], columns: [ColumnValues?]) throws {
    let compiled = try F.compiler().compileValue(source)
    let kernel = try #require(compiled.kernel, "'\(source)' has a kernel")
    var expected: [RealmValue] = []
    var failing = false
    for (i, object) in objects.enumerated() {
      // Columns not in the batch read as null, on both paths.
      var context = EvaluationContext(old: object.indices.map { columns[$0] == nil ? .null : objects[i][$0] })
      do {
        expected.append(try compiled.evaluate(&context))
      } catch {
        failing = true
      }
    }
    do {
      let out = try kernel(KernelInput(count: objects.count, old: columns, new: []))
      #expect(!failing, "'\(source)': the kernel gives values where an object fails")
      expectEqual(out.count, objects.count)
      for (i, value) in expected.enumerated() where i < out.count {
        #expect(Self.same(out.value(at: i), value), "'\(source)', object \(i): \(out.value(at: i)) vs \(value)")
      }
    } catch {
      // The batch goes object by object, where the failing object reports its error; none of
      // these expressions has a branch that fails where it is not taken.
      #expect(failing, "'\(source)': the kernel fell back though no object fails")
    }
  }

  /// Equal values, NaN equal to NaN and -0.0 distinct from 0.0 (the bits that get stored).
  static func same(_ a: RealmValue, _ b: RealmValue) -> Bool {
    switch (a, b) {
    case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
    case (.float(let x), .float(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
    default: return a == b
    }
  }

  @Test(arguments: expressions) func kernelsGiveTheClosuresValues(_ source: String) throws {
    for typed in [true, false] {
      try check(source, objects: Self.objects, columns: Self.columns(Self.objects, typed: typed))
      // Object by object, so that one failing object does not hide the others.
      for object in Self.objects {
        try check(source, objects: [object], columns: Self.columns([object], typed: typed))
      }
    }
  }

  @Test func columnsNotReadAreNull() throws {
    let read: Set<Int> = [1]  // firstName only
    for source in ["old.firstName + ' ' + old.lastName", "old.maybeAge ?? old.age", "string(old.age)"] {
      try check(source, objects: Self.objects, columns: Self.columns(Self.objects, typed: true, read: read))
    }
  }

  @Test func overflowSendsTheBatchObjectByObject() throws {
    let compiled = try F.compiler().compileValue("old.age + 10")
    let kernel = try #require(compiled.kernel)
    #expect(throws: KernelFallback.self) {
      try kernel(KernelInput(count: Self.objects.count, old: Self.columns(Self.objects, typed: true), new: []))
    }
  }

  @Test func commonTransformsHaveTypedResults() throws {
    let input = KernelInput(count: Self.objects.count, old: Self.columns(Self.objects, typed: true), new: [])
    let summary = try #require(try F.compiler().compileValue("old.lastName + ' #' + string(old.nickname ?? 'x')").kernel)
    guard case .string = try summary(input) else { Issue.record("a concatenation gives a string column"); return }
    let half = try #require(try F.compiler().compileValue("old.score * 0.5").kernel)
    guard case .double = try half(input) else { Issue.record("double arithmetic gives a double column"); return }
  }

  @Test func expressionsOfTheEnvironmentOrLinksHaveNoKernel() throws {
    for source in ["string(uuid())", "now()", "old.bestFriend.firstName", "old.age + length(string(objectId()))"] {
      #expect(try F.compiler().compileValue(source).kernel == nil, "'\(source)'")
    }
  }
}

import RealmTestSupport
import Testing

/// `expectEqual`, the plain function the suites call for `#expect(a == b)`: a mismatch is an
/// issue that shows both values and the comment, at the caller's line or the location given;
/// equal values record nothing (`withKnownIssue` fails a test whose closure records no issue).
@Suite struct ExpectEqualTests {
  @Test func aMismatchIsAnIssueWithBothValuesAndTheComment() {
    let line = #line + 2
    withKnownIssue {
      expectEqual([1, 2], [1, 3], "the \("note")")
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["Expectation failed: [1, 2] == [1, 3]: the note"]
        && issue.sourceLocation?.line == line && issue.sourceLocation?.fileID == #fileID
    }
  }

  @Test func stringsAreQuotedAndAGivenLocationIsUsed() {
    let given = SourceLocation(fileID: "M/F.swift", filePath: "/M/F.swift", line: 7, column: 3)
    withKnownIssue {
      expectEqual("a", "b", sourceLocation: given)
    } matching: { issue in
      issue.sourceLocation == given && issue.comments.map(\.rawValue) == [#"Expectation failed: "a" == "b""#]
    }
  }

  @Test func equalValuesRecordNothingAndTheCommentIsNotEvaluated() {
    var evaluated = false
    func note() -> String {
      evaluated = true
      return "x"
    }
    expectEqual(Optional(3), 3, note())
    expectEqual([UInt8](), [], note())
    #expect(!evaluated)
  }
}

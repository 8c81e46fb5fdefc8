import RealmModel
import RealmTestSupport
import Testing

@Suite struct SuggestionTests {
  @Test func namesAllowSwapsAndCaseAndScaleWithLength() {
    expectEqual(Suggestion.closest(to: "aeg", among: ["age", "name"]), "age")
    expectEqual(Suggestion.closest(to: "PERSON", among: ["Dog", "Person"]), "Person")
    // One edit for a name of up to three characters: two are too many.
    #expect(Suggestion.closest(to: "xy", among: ["age"]) == nil)
    expectEqual(Suggestion.hint(for: "nmae", among: ["name"]), " (did you mean 'name'?)")
    expectEqual(Suggestion.hint(for: "zzzzzz", among: ["name"]), "")
  }

  @Test func optionsFollowArgumentParsersThreshold() {
    // A swap costs two edits there, and up to three edits are suggested whatever the length.
    expectEqual(Suggestion.distance(Array("--plna"), Array("--plan"), swaps: false), 2)
    expectEqual(Suggestion.distance(Array("--plna"), Array("--plan"), swaps: true), 1)
    expectEqual(Suggestion.closest(to: "ab", among: ["xyz"], rule: .option), "xyz")
    #expect(Suggestion.closest(to: "ab", among: ["xyz"], rule: .name) == nil)
  }
}

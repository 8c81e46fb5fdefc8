import RealmModel
import Testing

@Suite struct SuggestionTests {
  @Test func namesAllowSwapsAndCaseAndScaleWithLength() {
    #expect(Suggestion.closest(to: "aeg", among: ["age", "name"]) == "age")
    #expect(Suggestion.closest(to: "PERSON", among: ["Dog", "Person"]) == "Person")
    // One edit for a name of up to three characters: two are too many.
    #expect(Suggestion.closest(to: "xy", among: ["age"]) == nil)
    #expect(Suggestion.hint(for: "nmae", among: ["name"]) == " (did you mean 'name'?)")
    #expect(Suggestion.hint(for: "zzzzzz", among: ["name"]) == "")
  }

  @Test func optionsFollowArgumentParsersThreshold() {
    // A swap costs two edits there, and up to three edits are suggested whatever the length.
    #expect(Suggestion.distance(Array("--plna"), Array("--plan"), swaps: false) == 2)
    #expect(Suggestion.distance(Array("--plna"), Array("--plan"), swaps: true) == 1)
    #expect(Suggestion.closest(to: "ab", among: ["xyz"], rule: .option) == "xyz")
    #expect(Suggestion.closest(to: "ab", among: ["xyz"], rule: .name) == nil)
  }
}

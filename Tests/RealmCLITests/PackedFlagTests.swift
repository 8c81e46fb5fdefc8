import RealmTestSupport
import Testing

/// Short and packed flags, repeating options, long choice lists and long usage lines, on a
/// synthetic tool. Expected texts were printed by swift-argument-parser 1.8.2 for the same
/// declarations.
@Suite struct PackedFlagTests {
  static let packUsage = """
    Usage: tool pack [--quiet] [--verbose] [--color <color>] [--include <include> ...] [<inputs> ...]
      See 'tool pack --help' for more information.

    """

  static let runs: [([String], String)] = [
    (["pack", "-qv", "a", "b"], "q=true v=true c=- i=[] in=[\"a\", \"b\"]\n"),
    (["pack", "-qvc", "red", "x"], "q=true v=true c=red i=[] in=[\"x\"]\n"),
    (["pack", "-cq", "red"], "q=true v=false c=red i=[] in=[]\n"),
    (
      ["pack", "-i", "a", "-i", "b", "--include=c"],
      "q=false v=false c=- i=[\"a\", \"b\", \"c\"] in=[]\n"
    ),
    (["pack", "--", "-q"], "q=false v=false c=- i=[] in=[\"-q\"]\n"),
    (["pack", "-c=blue"], "q=false v=false c=blue i=[] in=[]\n"),
    (["pack", "-", "x"], "q=false v=false c=- i=[] in=[\"-\", \"x\"]\n"),
  ]

  @Test("accepted forms", arguments: runs)
  func accepts(words: [String], expected: String) {
    let output = TestTool.output(words)
    expectEqual(output.stderr, "")
    expectEqual(output.stdout, expected)
  }

  static let errors: [([String], String)] = [
    (
      ["pack", "-c", "purple"],
      """
      Error: The value 'purple' is invalid for '-c <color>'. Please provide one of the following:
        - red
        - green
        - blue
        - cyan
        - magenta
        - yellow
      Help:  -c <color>  A colour.

      """ + packUsage
    ),
    (
      ["pack", "-qc"],
      "Error: Unknown option '-qc'\n   or: Missing value for '-c <color>' in '-qc'\n" + packUsage
    ),
    (["pack", "-x"], "Error: Unknown option '-x'\n" + packUsage),
    (["pack", "-qx"], "Error: Unknown option '-x'\n" + packUsage),
    (
      ["pack", "--colour", "red"],
      "Error: Unknown option '--colour'. Did you mean '--color'?\n" + packUsage
    ),
    (
      ["pack", "-q=3"],
      "Error: The option '-q' does not take any value, but '3' was specified.\n" + packUsage
    ),
    (
      ["many"],
      """
      Error: Missing expected argument '<file>'
      Help:  <file>  A file.
      Usage: tool many [<options>] <file> --req <req>
        See 'tool many --help' for more information.

      """
    ),
    (
      ["many", "f"],
      """
      Error: Missing expected argument '--req <req>'
      Help:  --req <req>  Required one.
      Usage: tool many [<options>] <file> --req <req>
        See 'tool many --help' for more information.

      """
    ),
  ]

  @Test("errors", arguments: errors)
  func rejects(words: [String], expected: String) {
    let output = TestTool.output(words)
    expectEqual(output.stdout, "")
    expectEqual(output.stderr, expected)
    expectEqual(output.status, 64)
  }

  @Test func rendersShortNamesChoicesAndRepeatingOptions() {
    #expect(
      TestTool.output(["pack", "--help"]).stdout == """
        OVERVIEW: Packed flags.

        USAGE: tool pack [--quiet] [--verbose] [--color <color>] [--include <include> ...] [<inputs> ...]

        ARGUMENTS:
          <inputs>                Inputs.

        OPTIONS:
          -q, --quiet             Quiet.
          -v, --verbose           Verbose.
          -c, --color <color>     A colour. (values: red, green, blue, cyan, magenta,
                                  yellow)
          -i, --include <include> Include paths.
          --version               Show the version.
          -h, --help              Show help information.


        """)
  }

  @Test func shortensLongUsageAndMovesLongLabelsToTheirOwnLine() {
    let expected =
      """
      OVERVIEW: Too many options for the usage line.

      USAGE: tool many [<options>] <file> --req <req>

      ARGUMENTS:
        <file>                  A file.

      OPTIONS:
        --req <req>             Required one.

      """
      + (1...11).map { "  --a\($0)" + String(repeating: " ", count: 21 - "\($0)".count) + "a\n" }
      .joined()
        + """
          --averyveryverylongoptionname <averyveryverylongoptionname>
                                  A very long option label that pushes its description
                                  to the next line of the help. (default: x)
          --version               Show the version.
          -h, --help              Show help information.


        """
    expectEqual(TestTool.output(["many", "--help"]).stdout, expected)
  }

  @Test func helpAndVersionAreFoundInsidePacks() {
    #expect(TestTool.output(["pack", "-qh"]).stdout.hasPrefix("OVERVIEW: Packed flags."))
    expectEqual(TestTool.output(["pack", "--version"]).stdout, "9.9\n")
  }
}

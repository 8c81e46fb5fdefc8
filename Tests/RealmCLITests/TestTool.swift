@testable import RealmCLI

/// A synthetic tool with short flags, repeating options, six choices and more than twelve
/// arguments: the cases realmctl's own commands do not have. Its expected outputs in the tests
/// were produced by swift-argument-parser 1.8.2 from the same declarations.
enum TestTool {
  static let pack = CommandSpec(
    name: "pack", abstract: "Packed flags.",
    arguments: [
      .flag("quiet", short: "q", help: "Quiet."),
      .flag("verbose", short: "v", help: "Verbose."),
      .option(
        "color", short: "c", valueName: "color",
        type: .choice(["red", "green", "blue", "cyan", "magenta", "yellow"]), help: "A colour."),
      .option(
        "include", short: "i", valueName: "include", isRepeating: true, help: "Include paths."),
      .positional("inputs", isRequired: false, isRepeating: true, help: "Inputs."),
    ])

  static let many = CommandSpec(
    name: "many", abstract: "Too many options for the usage line.",
    arguments: [
      .positional("file", help: "A file."),
      .option("req", valueName: "req", isRequired: true, help: "Required one."),
    ] + (1...11).map { .flag("a\($0)", help: "a") } + [
      .option(
        "averyveryverylongoptionname", valueName: "averyveryverylongoptionname", default: "x",
        help: "A very long option label that pushes its description to the next line of the help.")
    ])

  static let root = CommandSpec(
    name: "tool", abstract: "A test tool.", subcommands: [pack, many], version: "9.9")

  static let parser = CommandLineParser(root: root)
  static let renderer = HelpRenderer(root: root, width: 80)

  /// What the tool prints for `words`: help or version on stdout, or a usage error on stderr.
  static func output(_ words: [String]) -> (stdout: String, stderr: String, status: Int32) {
    switch parser.parse(words) {
    case .success(.help(let command)): (renderer.help(for: command), "", 0)
    case .success(.version): (renderer.versionText, "", 0)
    case .success(.run(let invocation)): (describe(invocation), "", 0)
    case .failure(let error): ("", renderer.errorText(error), 64)
    }
  }

  /// The same line the SAP reference printed from its `run()`.
  static func describe(_ invocation: ParsedInvocation) -> String {
    let quiet = invocation.flag("quiet")
    let verbose = invocation.flag("verbose")
    let color = invocation.string("color") ?? "-"
    let include = invocation.strings("include").map { "\"\($0)\"" }.joined(separator: ", ")
    let inputs = invocation.strings("inputs").map { "\"\($0)\"" }.joined(separator: ", ")
    return "q=\(quiet) v=\(verbose) c=\(color) i=[\(include)] in=[\(inputs)]\n"
  }
}

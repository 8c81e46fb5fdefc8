/// Renders help, usage lines and usage errors from ``CommandSpec``s, byte for byte in
/// swift-argument-parser's layout.
///
/// ```text
/// OVERVIEW: <abstract>
///
/// <discussion>
///
/// USAGE: realmctl schema <file> [--format <format>]
///
/// ARGUMENTS:
///   <file>                  The Realm file to read.
///
/// OPTIONS:
///   --format <format>       … (values: text, json, swift; default: text)
/// ```
/// Labels are indented by 2 and descriptions start at column 26 (on the next line when the
/// label is longer), wrapped to ``width``.
public struct HelpRenderer: Sendable {
  /// Indentation of section entries.
  static let indent = 2
  /// Column at which descriptions start.
  static let labelColumn = 26
  /// More arguments than this shorten the usage line to `[<options>]`.
  static let maximumUsageArguments = 12

  /// The root command.
  public let root: CommandSpec
  /// Columns to wrap to.
  public let width: Int

  /// Creates a renderer for the tree under `root`, wrapping at `width` columns.
  public init(root: CommandSpec, width: Int = Terminal.defaultWidth) {
    self.root = root
    self.width = max(width, HelpRenderer.labelColumn + 10)
  }

  // MARK: - Help

  /// The complete help of `command` (`nil`: the root), ending with the blank line SAP prints.
  public func help(for command: CommandSpec?) -> String {
    let spec = command ?? root
    var abstract = spec.abstract
    if !spec.discussion.isEmpty {
      if !abstract.isEmpty { abstract += "\n" }
      abstract += "\n" + spec.discussion
    }
    var text = ""
    if !abstract.isEmpty { text += ("OVERVIEW: " + abstract).wrapped(to: width) + "\n\n" }
    text += "USAGE: " + usage(for: command) + "\n\n"
    text += sections(for: command).joined(separator: "\n")
    if command == nil && !root.subcommands.isEmpty {
      text += "\n  See '\(root.name) help <subcommand>' for detailed help."
    }
    return text + "\n"
  }

  /// The usage synopsis: `realmctl migrate --plan <plan> <file> ... [--dry-run]`.
  public func usage(for command: CommandSpec?) -> String {
    guard let command else {
      return root.subcommands.isEmpty ? root.name : root.name + " <subcommand>"
    }
    let toolName = "\(root.name) \(command.name)"
    var arguments = command.arguments
    if arguments.isEmpty { return toolName }
    if arguments.count > Self.maximumUsageArguments {
      arguments = arguments.filter { $0.isPositional || $0.isRequired }
      guard !arguments.isEmpty, arguments.count <= Self.maximumUsageArguments else {
        return "\(toolName) <options>"
      }
      return "\(toolName) [<options>] " + arguments.map(\.usageSynopsis).joined(separator: " ")
    }
    return "\(toolName) " + arguments.map(\.usageSynopsis).joined(separator: " ")
  }

  /// The version line printed by `--version`.
  public var versionText: String { (root.version ?? "Unspecified version") + "\n" }

  // MARK: - Errors

  /// What a usage error prints on standard error:
  /// `Error: …`, optionally `Help:  …`, `Usage: …` and `  See 'realmctl <cmd> --help' …`.
  public func errorText(_ error: UsageError, usesColor: Bool = false) -> String {
    let command = error.command.flatMap { name in
      name == HelpCommandSpec.spec.name ? HelpCommandSpec.spec : root.subcommand(named: name)
    }
    var text = Self.errorPrefix(usesColor: usesColor) + error.message + "\n"
    if let helpLine = error.helpLine, !helpLine.hasSuffix("  ") {
      text += "Help:  \(helpLine)\n"
    }
    text += "Usage: " + usage(for: command)
    // The help command has no --help of its own, so SAP prints no "See" line for it.
    if command?.name != HelpCommandSpec.spec.name {
      let names = [root.name] + (command.map { [$0.name] } ?? [])
      text += "\n  See '\(names.joined(separator: " ")) --help' for more information."
    }
    return text + "\n"
  }

  /// `Error: ` in bold red when colour is allowed.
  public static func errorPrefix(usesColor: Bool) -> String {
    usesColor ? "\u{1B}[1;31mError:\u{1B}[0m " : "Error: "
  }

  // MARK: - Sections

  private func sections(for command: CommandSpec?) -> [String] {
    let spec = command ?? root
    let isHelpCommand = spec.name == HelpCommandSpec.spec.name && command != nil
    var arguments: [(String, String)] = []
    var options: [(String, String)] = []
    for argument in spec.arguments {
      let entry = (argument.helpLabel, argument.helpDescription)
      if argument.isPositional { arguments.append(entry) } else { options.append(entry) }
    }
    if root.version != nil { options.append(("--version", "Show the version.")) }
    if !isHelpCommand { options.append(("-h, --help", "Show help information.")) }
    var sections = [
      section("ARGUMENTS", arguments),
      section("OPTIONS", options),
    ]
    if command == nil && !root.subcommands.isEmpty {
      // The built-in help command is not listed (SAP hides it too).
      let commands = root.visibleSubcommands.map { ($0.name, $0.abstract) }
      sections.append(section("SUBCOMMANDS", commands))
    }
    return sections.filter { !$0.isEmpty }
  }

  private func section(_ title: String, _ entries: [(label: String, text: String)]) -> String {
    guard !entries.isEmpty else { return "" }
    return title + ":\n" + entries.map { entry($0.label, $0.text) }.joined()
  }

  /// One entry: the label at column 2, the text at column 26 (next line if the label is long).
  private func entry(_ label: String, _ text: String) -> String {
    let paddedLabel = String(repeating: " ", count: Self.indent) + label
    guard !text.isEmpty else { return paddedLabel + "\n" }
    let wrapped = text.wrapped(to: width, indent: Self.labelColumn)
    if paddedLabel.count < Self.labelColumn {
      return paddedLabel + wrapped.dropFirst(paddedLabel.count) + "\n"
    }
    return paddedLabel + "\n" + wrapped + "\n"
  }
}

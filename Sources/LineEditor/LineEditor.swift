/// The line editor's logic, without a terminal: keys in, screen bytes and events out.
///
/// ```swift
/// var editor = LineEditor(prompt: "realm> ")
/// var screen = editor.start(width: 80)
/// for key in KeyDecoder().feed(Array("User\r".utf8)) {
///   let event = editor.handle(key, width: 80)
///   screen += editor.takeOutput()
///   if case .accepted(let line) = event { … }
/// }
/// ```
/// Keys (emacs-style, as readline): Left/Right, Ctrl-B/F, Alt-B/F and Ctrl-arrows by word;
/// Home/End, Ctrl-A/E; Backspace, Delete, Ctrl-D (end of input on an empty line); Ctrl-K,
/// Ctrl-U, Ctrl-W, Alt-D, Alt-Backspace kill, Ctrl-Y yanks; Ctrl-T transposes; Up/Down and
/// Ctrl-P/N walk the history; Ctrl-R searches it backwards (Ctrl-R again for older matches,
/// Ctrl-G or Escape to give up); Tab completes through ``completer``; Ctrl-L clears the
/// screen; Ctrl-C abandons the line; Ctrl-Z asks to suspend.
public struct LineEditor {
  /// What a key press ended with.
  public enum Event: Equatable, Sendable {
    /// Still editing.
    case none
    /// Enter: the line (already added to ``history``).
    case accepted(String)
    /// Ctrl-D on an empty line.
    case endOfFile
    /// Ctrl-C: the line was abandoned.
    case interrupted
    /// Ctrl-Z: the caller may suspend the process, then call ``redraw(width:)``.
    case suspend
  }

  /// What Tab may complete: the candidates for the text from ``start`` to the cursor.
  public struct Completion: Sendable, Equatable {
    /// Character offset where the completed word starts.
    public var start: Int
    /// Full replacements for the word.
    public var candidates: [String]
    /// Creates a completion.
    public init(start: Int, candidates: [String]) {
      self.start = start
      self.candidates = candidates
    }
  }

  /// The prompt shown before the line.
  public var prompt: String
  /// Entries for Up/Down and Ctrl-R; accepted lines are added.
  public var history: History
  /// Called on Tab with the line and the cursor (a character offset).
  public var completer: ((String, Int) -> Completion)?
  /// The line being edited.
  public private(set) var buffer = EditBuffer()

  private var renderer = LineRenderer()
  private var output = ""
  private var historyIndex = 0
  private var draft = ""
  private var search: Search?
  private var lastKeyWasTab = false

  /// State of a Ctrl-R search.
  private struct Search {
    var query = ""
    var match: Int?
    var failed = false
    var original: EditBuffer
  }

  /// An editor showing `prompt`, with `history`.
  public init(prompt: String, history: History = History()) {
    self.prompt = prompt
    self.history = history
    historyIndex = history.entries.count
  }

  /// Starts a new line: an empty buffer, the prompt drawn.
  public mutating func start(width: Int) -> String {
    buffer = EditBuffer()
    search = nil
    historyIndex = history.entries.count
    draft = ""
    renderer.reset()
    refresh(width: width)
    return takeOutput()
  }

  /// Bytes to write to the terminal since the last call.
  public mutating func takeOutput() -> String {
    defer { output = "" }
    return output
  }

  /// Draws the prompt and line again (after a resize or a suspension).
  public mutating func redraw(width: Int, fromScratch: Bool = true) {
    if fromScratch { renderer.reset() }
    refresh(width: width)
  }

  /// Handles one key; the screen bytes wait in ``takeOutput()``.
  public mutating func handle(_ key: Key, width: Int) -> Event {
    let wasTab = lastKeyWasTab
    lastKeyWasTab = key == .tab
    if search != nil, let event = handleSearch(key, width: width) { return event }
    switch key {
    case .text(let text):
      buffer.insert(text)
    case .enter:
      return accept(width: width)
    case .tab:
      complete(width: width, listing: wasTab)
      return .none
    case .backspace, .ctrl("h"): buffer.deleteBackward()
    case .delete: buffer.deleteForward()
    case .left, .ctrl("b"): buffer.moveLeft()
    case .right, .ctrl("f"): buffer.moveRight()
    case .home, .ctrl("a"): buffer.moveToStart()
    case .end, .ctrl("e"): buffer.moveToEnd()
    case .wordLeft: buffer.moveWordLeft()
    case .wordRight: buffer.moveWordRight()
    case .ctrl("k"): buffer.killToEnd()
    case .ctrl("u"): buffer.killToStart()
    case .ctrl("w"): buffer.killWordBackward()
    case .alt("d"): buffer.killWordForward()
    case .altBackspace: buffer.killAlphanumericWordBackward()
    case .ctrl("y"): buffer.yank()
    case .ctrl("t"): buffer.transpose()
    case .up, .ctrl("p"): historyStep(-1)
    case .down, .ctrl("n"): historyStep(+1)
    case .ctrl("r"):
      search = Search(original: buffer)
      runSearch(from: history.entries.count)
    case .ctrl("d"):
      if buffer.characters.isEmpty {
        output += renderer.leave(prompt: prompt, text: buffer.characters, width: width)
        return .endOfFile
      }
      buffer.deleteForward()
    case .ctrl("c"):
      output += "^C"
      output += renderer.leave(prompt: prompt, text: buffer.characters + ["^", "C"], width: width)
      buffer = EditBuffer()
      return .interrupted
    case .ctrl("l"):
      output += "\u{1B}[H\u{1B}[2J"
      renderer.reset()
    case .ctrl("z"):
      output += renderer.leave(prompt: prompt, text: buffer.characters, width: width)
      return .suspend
    default:
      return .none
    }
    refresh(width: width)
    return .none
  }

  // MARK: - Private

  private mutating func refresh(width: Int) {
    if let search {
      let label = search.failed ? "(failed reverse-i-search)" : "(reverse-i-search)"
      let searchPrompt = "\(label)`\(search.query)': "
      output += renderer.redraw(
        prompt: searchPrompt, text: buffer.characters, cursor: buffer.cursor, width: width)
    } else {
      output += renderer.redraw(
        prompt: prompt, text: buffer.characters, cursor: buffer.cursor, width: width)
    }
  }

  private mutating func accept(width: Int) -> Event {
    let line = buffer.text
    buffer.moveToEnd()
    refresh(width: width)
    output += renderer.leave(prompt: prompt, text: buffer.characters, width: width)
    history.add(line)
    historyIndex = history.entries.count
    buffer = EditBuffer()
    return .accepted(line)
  }

  private mutating func historyStep(_ step: Int) {
    let target = historyIndex + step
    guard target >= 0, target <= history.entries.count else { return }
    if historyIndex == history.entries.count { draft = buffer.text }
    historyIndex = target
    buffer.replace(with: target == history.entries.count ? draft : history.entries[target])
  }

  /// Keys during a Ctrl-R search; nil when the key ends the search and is handled as usual.
  private mutating func handleSearch(_ key: Key, width: Int) -> Event? {
    guard var state = search else { return nil }
    switch key {
    case .text(let text):
      state.query += text
      search = state
      runSearch(from: (state.match ?? history.entries.count - 1) + 1)
    case .backspace:
      state.query = String(state.query.dropLast())
      search = state
      runSearch(from: history.entries.count)
    case .ctrl("r"):
      runSearch(from: state.match ?? history.entries.count)
    case .ctrl("g"), .escape:
      buffer = state.original
      search = nil
    case .ctrl("c"):
      buffer = state.original
      search = nil
      return handle(key, width: width)
    case .enter:
      search = nil
      return accept(width: width)
    default:
      // Any other key keeps the match for editing and then does its usual job.
      if let match = state.match { historyIndex = match }
      search = nil
      refresh(width: width)
      return handle(key, width: width)
    }
    refresh(width: width)
    return Event.none
  }

  /// Looks for the query in entries before `index`; shows the match or marks the search failed.
  private mutating func runSearch(from index: Int) {
    guard var state = search else { return }
    if let found = history.search(state.query, before: index) {
      state.match = found
      state.failed = false
      let entry = history.entries[found]
      var cursor = entry.count
      if !state.query.isEmpty, let range = entry.firstRange(of: state.query) {
        cursor = entry.distance(from: entry.startIndex, to: range.lowerBound)
      }
      buffer.replace(with: entry, cursor: cursor)
    } else {
      state.failed = !state.query.isEmpty
    }
    search = state
  }

  private mutating func complete(width: Int, listing: Bool) {
    guard let completer else { return }
    let completion = completer(buffer.text, buffer.cursor)
    let start = min(max(0, completion.start), buffer.cursor)
    let word = String(buffer.characters[start..<buffer.cursor])
    let candidates = completion.candidates.filter { $0.hasPrefix(word) }
    guard let first = candidates.first else {
      output += "\u{07}"
      return
    }
    if candidates.count == 1 {
      insertCompletion(String(first.dropFirst(word.count)) + (first.hasSuffix("/") ? "" : " "))
      refresh(width: width)
      return
    }
    let common = candidates.dropFirst().reduce(first) { prefix, next in
      String(zip(prefix, next).prefix { $0 == $1 }.map(\.0))
    }
    if common.count > word.count {
      insertCompletion(String(common.dropFirst(word.count)))
      refresh(width: width)
    } else if listing {
      output += renderer.leave(prompt: prompt, text: buffer.characters, width: width)
      output += Self.columns(candidates, width: width)
      refresh(width: width)
    } else {
      output += "\u{07}"
    }
  }

  private mutating func insertCompletion(_ text: String) {
    buffer.insert(text)
  }

  /// Candidates in columns, as shells list them.
  static func columns(_ items: [String], width: Int) -> String {
    let cell = (items.map { CharacterWidth.of($0) }.max() ?? 0) + 2
    let perRow = max(1, width / cell)
    var out = ""
    for (i, item) in items.enumerated() {
      let last = i % perRow == perRow - 1 || i == items.count - 1
      out += item
      out += last ? "\r\n" : String(repeating: " ", count: cell - CharacterWidth.of(item))
    }
    return out
  }
}

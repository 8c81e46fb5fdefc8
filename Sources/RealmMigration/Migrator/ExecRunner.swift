import RealmModel
import RealmJSON

/// Runs an `exec` step's external program: objects go to its stdin as canonical JSON lines,
/// their new versions come back on its stdout, one line per object, in the same order.
///
/// Three threads take part: the caller's (reads the source, decodes answers, hands objects on
/// in key order), one writing the program's stdin and one reading its stdout, so a program
/// that buffers its output cannot deadlock with us. Objects the step's `where` skips do not go
/// to the program; they wait (with those sent before them) until the program has answered
/// everything sent before them, so the order of keys is kept. Memory is what the program
/// holds back: one object at a time for a program that answers line by line.
final class ExecRunner {
  let stage: ExecStage
  let codec: ExecCodec
  let command: String
  /// Longest answer line accepted.
  static let maxLineLength = 1 << 28
  /// Lines are handed to the writing thread in chunks of about this size.
  static let chunkSize = 1 << 16

  private struct Pending {
    var key: Int64
    var values: [RealmValue]
    var sent: Bool
  }

  private var window: [Pending] = []
  private var windowHead = 0
  private var answered = 0

  init(stage: ExecStage, sourceClasses: [ObjectSchema], sourceName: @escaping (String) -> String) {
    self.stage = stage
    command = stage.command.joined(separator: " ")
    codec = ExecCodec(layout: stage.layout, sourceClasses: sourceClasses, sourceName: sourceName, command: command)
  }

  /// Streams objects from `produce` through the program into `consume` (key, values, changed).
  func run(
    produce: (_ emit: (Int64, [RealmValue]) throws -> Void) throws -> Void,
    consume consumeObject: (Int64, [RealmValue], Bool) throws -> Void
  ) throws {
    try withoutActuallyEscaping(consumeObject) { consume in try run(produce: produce, consumeEscaping: consume) }
  }

  private func run(
    produce: (_ emit: (Int64, [RealmValue]) throws -> Void) throws -> Void,
    consumeEscaping consume: @escaping (Int64, [RealmValue], Bool) throws -> Void
  ) throws {
    let process = try ExecProcess(command: stage.command, path: stage.path)
    let writer = ExecInputWriter(fd: process.inputFD)
    let reader = ExecOutputReader(fd: process.outputFD, maxLineLength: Self.maxLineLength)
    writer.start { process.closeInput() }
    reader.start()
    do {
      var chunk = JSONWriter(indent: 0, capacity: Self.chunkSize + 4096)
      try produce { key, values in
        let matches = try stage.filter?.matches(values, objectKey: key) ?? true
        if matches {
          codec.append(key: key, values: values, to: &chunk)
          if chunk.buffer.count >= Self.chunkSize {
            writer.send(chunk.buffer)
            chunk.buffer.removeAll(keepingCapacity: true)
          }
        }
        window.append(Pending(key: key, values: values, sent: matches))
        try drain(reader, process, writer, wait: false, consume)
      }
      if !chunk.buffer.isEmpty { writer.send(chunk.buffer) }
      writer.finish()
      try drain(reader, process, writer, wait: true, consume)
      if case .line(_, let number) = try reader.next(wait: true) {
        throw codec.failure(stage.path, "wrote more lines than objects it was given: output line \(number) answers no object")
      }
      writer.join()
      try checkExit(process.waitForExit())
    } catch {
      writer.cancel()
      process.terminate()
      writer.join()
      reader.join()
      throw error
    }
    reader.join()
  }

  /// Hands on every object at the head of the window whose answer is in (or that bypasses
  /// the program); with `wait`, waits for answers until the window is empty.
  private func drain(
    _ reader: ExecOutputReader, _ process: ExecProcess, _ writer: ExecInputWriter, wait: Bool,
    _ consume: (Int64, [RealmValue], Bool) throws -> Void
  ) throws {
    while windowHead < window.count {
      let first = window[windowHead]
      if first.sent {
        switch try reader.next(wait: wait) {
        case .none:
          return
        case .end:
          // The output ended early: a failed program says why through its exit status.
          writer.cancel()
          writer.join()
          try checkExit(process.waitForExit())
          throw codec.failure(
            stage.path, "answered \(answered) object(s), then its output ended before the answer for key \(first.key)")
        case .line(let line, let number):
          let values = try codec.decodeAnswer(line, number: number, key: first.key, original: first.values, path: stage.path)
          answered += 1
          popFirst()
          try consume(first.key, values, values != first.values)
        }
      } else {
        popFirst()
        try consume(first.key, first.values, false)
      }
    }
    // Everything sent is answered: a line now is one too many.
    if !wait, case .line(_, let number) = try reader.next(wait: false) {
      throw codec.failure(stage.path, "wrote more lines than objects it was given: output line \(number) answers no object")
    }
  }

  private func popFirst() {
    window[windowHead].values = []
    windowHead += 1
    if windowHead == window.count {
      window.removeAll(keepingCapacity: true)
      windowHead = 0
    } else if windowHead >= 4096 && windowHead * 2 >= window.count {
      window.removeFirst(windowHead)
      windowHead = 0
    }
  }

  private func checkExit(_ termination: ExecProcess.Termination) throws {
    switch termination {
    case .exited(0):
      return
    case .exited(let status):
      throw codec.failure(stage.path, "exited with status \(status) (its stderr is shown above)")
    case .signaled(let signal):
      throw codec.failure(stage.path, "was killed by \(ExecProcess.signalName(signal))")
    }
  }
}

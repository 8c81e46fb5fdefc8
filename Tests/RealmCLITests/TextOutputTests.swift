import Foundation
import RealmTestSupport
import Testing

@testable import RealmCLI

/// Counts the calls that reach the destination, to show writes are buffered.
private final class CountingDestination: OutputDestination {
  var calls = 0
  var bytes: [UInt8] = []
  func writeAll(_ bytes: UnsafeRawBufferPointer) throws(RealmCtlError) {
    calls += 1
    self.bytes.append(contentsOf: bytes)
  }
}

@Suite struct TextOutputTests {
  @Test func buffersSmallWritesIntoFewLargeOnes() throws {
    let destination = CountingDestination()
    let output = TextOutput(destination, capacity: 1024)
    for i in 0..<1000 { try output.writeLine("line \(i)") }
    try output.flush()
    let expected = (0..<1000).map { "line \($0)\n" }.joined()
    expectEqual(String(decoding: destination.bytes, as: UTF8.self), expected)
    // 8890 bytes through a 1 KiB buffer: about nine writes, not a thousand.
    #expect(destination.calls <= expected.utf8.count / 1024 + 1)
  }

  @Test func writesLargeChunksStraightThrough() throws {
    let destination = CountingDestination()
    let output = TextOutput(destination, capacity: 16)
    try output.write("ab")
    try output.write(bytes: [UInt8](repeating: 0x41, count: 100))
    try output.write(byte: 0x0A)
    try output.flush()
    expectEqual(destination.bytes, Array("ab".utf8) + [UInt8](repeating: 0x41, count: 100) + [0x0A])
    expectEqual(destination.calls, 3)
  }

  @Test func keepsUnicodeIntact() throws {
    let output = TextOutput.memory()
    try output.write("Zoë 🐶 名前")
    expectEqual(output.text, "Zoë 🐶 名前")
  }

  @Test func reportsABrokenPipeAndStopsWriting() throws {
    try CommandTestSupport.withBrokenPipe { fd in
      let output = TextOutput(FileDescriptorDestination(fd: fd), capacity: 8)
      #expect(throws: RealmCtlError(.brokenPipe, "")) { try output.write("more than eight bytes") }
      // Every later write fails at once, so a long dump ends quickly.
      #expect(throws: RealmCtlError(.brokenPipe, "")) { try output.write(byte: 0x41) }
    }
  }

  @Test func writesToAFileDescriptor() throws {
    var fds: [Int32] = [0, 0]
    expectEqual(pipe(&fds), 0)
    defer { close(fds[0]) }
    let output = TextOutput(FileDescriptorDestination(fd: fds[1]))
    try output.write("hello\n")
    try output.flush()
    close(fds[1])
    let data = FileHandle(fileDescriptor: fds[0]).readDataToEndOfFile()
    expectEqual(String(decoding: data, as: UTF8.self), "hello\n")
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX calls the server makes, each with its Linux and macOS spelling in one place, so
/// that the rest of the module reads the same on both.
enum SystemCalls {
  /// The current `errno`.
  static var errorNumber: Int32 { errno }

  /// `strerror(code)`.
  static func describe(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }

  /// A stream socket of `family`, close-on-exec (never inherited by a browser the program
  /// starts), or -1 with `errno` set.
  static func streamSocket(family: Int32) -> Int32 {
    #if canImport(Glibc)
      return socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #else
      let descriptor = socket(family, SOCK_STREAM, 0)
      if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
      return descriptor
    #endif
  }

  /// Accepts a connection on a listening socket: the new descriptor, non-blocking and
  /// close-on-exec, or -1 with `errno` set.
  static func acceptConnection(_ listener: Int32) -> Int32 {
    // (accept4 would do it in one call on Linux, but Glibc's module does not export it.)
    let descriptor = accept(listener, nil, nil)
    if descriptor >= 0 {
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      setNonBlocking(descriptor)
    }
    return descriptor
  }

  /// Makes `descriptor`'s reads and writes return `EAGAIN` instead of waiting.
  static func setNonBlocking(_ descriptor: Int32) {
    let flags = fcntl(descriptor, F_GETFL, 0)
    if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
  }

  /// Sets an `Int32` socket option, returning whether it took.
  @discardableResult
  static func setOption(_ descriptor: Int32, level: Int32, name: Int32, value: Int32) -> Bool {
    var value = value
    return setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
  }

  /// The options of an accepted connection: no Nagle delay (a response's head and body go out
  /// at once) and, on macOS, no SIGPIPE when the peer has gone (Linux passes `MSG_NOSIGNAL` to
  /// every `send` instead).
  static func configureConnection(_ descriptor: Int32) {
    #if canImport(Glibc)
      setOption(descriptor, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
    #else
      setOption(descriptor, level: IPPROTO_TCP, name: TCP_NODELAY, value: 1)
      setOption(descriptor, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
    #endif
  }

  /// Lets a restarted server bind the port again while old connections linger in TIME_WAIT.
  static func allowAddressReuse(_ descriptor: Int32) {
    setOption(descriptor, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
  }

  /// `send` that never raises SIGPIPE: the byte count, or -1 with `errno` set.
  static func sendBytes(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
      return send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
    #else
      return send(descriptor, bytes.baseAddress, bytes.count, 0)
    #endif
  }

  /// `recv`: the byte count (0 at the end of the stream), or -1 with `errno` set.
  static func receiveBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    recv(descriptor, buffer.baseAddress, buffer.count, 0)
  }

  /// Closes the sending half: the peer reads the end of the stream after what was sent.
  static func shutdownWrites(_ descriptor: Int32) {
    #if canImport(Glibc)
      _ = shutdown(descriptor, Int32(SHUT_WR))
    #else
      _ = shutdown(descriptor, SHUT_WR)
    #endif
  }

  /// Closes a descriptor.
  static func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
  }

  /// `EINTR`: a call interrupted by a signal, to be made again.
  static var interrupted: Int32 { EINTR }

  /// Whether `errno` says a non-blocking call would have had to wait.
  static func wouldBlock(_ code: Int32) -> Bool { code == EAGAIN || code == EWOULDBLOCK }

  /// The readiness `poll` reported for each descriptor.
  struct Readiness {
    var first: Int16
    var second: Int16
  }

  /// Polls two descriptors (the second may be -1, ignored) for `events`, waiting at most
  /// `milliseconds` (-1: without limit). `nil` when the wait timed out; retried on `EINTR`.
  static func poll(
    _ first: Int32, events firstEvents: Int16, _ second: Int32, events secondEvents: Int16, milliseconds: Int32
  ) -> Readiness? {
    var descriptors = [
      pollfd(fd: first, events: firstEvents, revents: 0), pollfd(fd: second, events: secondEvents, revents: 0),
    ]
    while true {
      let count = descriptors.withUnsafeMutableBufferPointer { buffer in
        #if canImport(Glibc)
          Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
        #else
          Darwin.poll(buffer.baseAddress, nfds_t(buffer.count), milliseconds)
        #endif
      }
      if count > 0 { return Readiness(first: descriptors[0].revents, second: descriptors[1].revents) }
      if count == 0 { return nil }
      if errno != EINTR { return Readiness(first: Int16(POLLERR), second: 0) }
    }
  }

  /// `POLLIN`.
  static let readable = Int16(POLLIN)
  /// `POLLOUT`.
  static let writable = Int16(POLLOUT)
  /// `POLLERR | POLLHUP | POLLNVAL`: the descriptor is done.
  static let broken = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)

  /// A pipe, both ends close-on-exec and non-blocking: `(read, write)`, or nil.
  static func makePipe() -> (read: Int32, write: Int32)? {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return nil }
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      setNonBlocking(end)
    }
    return (ends[0], ends[1])
  }

  /// Writes one byte to a descriptor (async-signal-safe).
  static func writeByte(_ descriptor: Int32) {
    var byte: UInt8 = 1
    _ = write(descriptor, &byte, 1)
  }

  /// Sleeps for `milliseconds`.
  static func sleep(milliseconds: Int) {
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts a detached POSIX thread: each connection runs on one, so a handler that blocks
/// (reading a large file, streaming an export) holds up only its own connection.
enum DetachedThread {
  /// The stack of a connection thread: the default of the main thread, so that a handler runs
  /// with the same depth as it would in the command line (8 MiB, reserved, not committed).
  static let stackSize = 8 << 20

  /// The closure a new thread runs, carried through `pthread_create`'s `void *` argument.
  private final class Body {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
  }

  /// Runs `body` on a new detached thread. Throws when the system refuses to create one.
  static func start(_ body: @escaping @Sendable () -> Void) throws(HTTPServerError) {
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    #if canImport(Glibc)
      pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    #else
      pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED)
    #endif
    pthread_attr_setstacksize(&attributes, stackSize)
    let argument = Unmanaged.passRetained(Body(body)).toOpaque()
    #if canImport(Glibc)
      var thread = pthread_t()
      let status = pthread_create(&thread, &attributes, { argument in
        Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
        return nil
      }, argument)
    #else
      var thread: pthread_t?
      let status = pthread_create(&thread, &attributes, { argument in
        Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
        return nil
      }, argument)
    #endif
    if status != 0 {
      Unmanaged<Body>.fromOpaque(argument).release()
      throw .system(call: "pthread_create", code: status)
    }
  }
}

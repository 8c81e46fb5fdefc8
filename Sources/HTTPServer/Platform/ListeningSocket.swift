#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A bound, listening TCP socket (non-blocking, close-on-exec).
struct ListeningSocket: Sendable {
  /// The descriptor.
  let descriptor: Int32
  /// The port it is bound to (the one the system picked when 0 was asked).
  let port: Int

  /// Binds `host:port` (an IPv4 or IPv6 literal, or a name such as `localhost`, resolved to
  /// its first address) and listens with room for `backlog` pending connections.
  static func bind(host: String, port: Int, backlog: Int32) throws(HTTPServerError) -> ListeningSocket {
    guard (0...65_535).contains(port) else { throw .invalidPort(port) }
    let address = try resolve(host: host, port: port)
    let descriptor = SystemCalls.streamSocket(family: Int32(address.family))
    guard descriptor >= 0 else { throw .system(call: "socket", code: SystemCalls.errorNumber) }
    SystemCalls.allowAddressReuse(descriptor)
    let bound = withUnsafeBytes(of: address.storage) { raw in
      systemBind(descriptor, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
    }
    if bound != 0 {
      let code = SystemCalls.errorNumber
      SystemCalls.closeDescriptor(descriptor)
      switch code {
      case EADDRINUSE: throw .addressInUse(host: host, port: port)
      case EACCES: throw .permissionDenied(host: host, port: port)
      case EADDRNOTAVAIL: throw .addressNotAvailable(host: host)
      default: throw .system(call: "bind", code: code)
      }
    }
    guard listen(descriptor, backlog) == 0 else {
      let code = SystemCalls.errorNumber
      SystemCalls.closeDescriptor(descriptor)
      throw code == EADDRINUSE ? .addressInUse(host: host, port: port) : .system(call: "listen", code: code)
    }
    SystemCalls.setNonBlocking(descriptor)
    guard let boundPort = localPort(of: descriptor) else {
      let code = SystemCalls.errorNumber
      SystemCalls.closeDescriptor(descriptor)
      throw .system(call: "getsockname", code: code)
    }
    return ListeningSocket(descriptor: descriptor, port: boundPort)
  }

  /// A resolved socket address.
  private struct Address {
    var family: sa_family_t
    var storage: sockaddr_storage
    var length: socklen_t
  }

  /// The address `getaddrinfo` gives for `host` (numeric port, passive): its first IPv4
  /// address, or its first address.
  private static func resolve(host: String, port: Int) throws(HTTPServerError) -> Address {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var list: UnsafeMutablePointer<addrinfo>?
    // `localhost` is 127.0.0.1: the address a command prints must be the one bound, and some
    // systems list ::1 first for the name.
    let name = host.lowercased() == "localhost" ? "127.0.0.1" : host
    let status = getaddrinfo(name, String(port), &hints, &list)
    guard status == 0, var first = list else { throw .cannotResolve(host: host) }
    defer { freeaddrinfo(list) }
    // An IPv4 address when the name has one (what browsers try first for a name with both).
    var entry: UnsafeMutablePointer<addrinfo>? = list
    while let current = entry {
      if current.pointee.ai_family == AF_INET {
        first = current
        break
      }
      entry = current.pointee.ai_next
    }
    var storage = sockaddr_storage()
    let length = min(Int(first.pointee.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
    withUnsafeMutableBytes(of: &storage) { target in
      target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: length))
    }
    return Address(family: sa_family_t(first.pointee.ai_family), storage: storage, length: socklen_t(length))
  }

  /// The local port of a bound socket.
  static func localPort(of descriptor: Int32) -> Int? {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let status = withUnsafeMutablePointer(to: &storage) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard status == 0 else { return nil }
    switch Int32(storage.ss_family) {
    case AF_INET:
      return withUnsafeBytes(of: storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port)) }
    case AF_INET6:
      return withUnsafeBytes(of: storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port)) }
    default:
      return nil
    }
  }
}

/// `bind(2)` (a free function: inside `ListeningSocket`, `bind` names the static method).
private func systemBind(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
  #if canImport(Glibc)
    Glibc.bind(descriptor, address, length)
  #else
    Darwin.bind(descriptor, address, length)
  #endif
}

import Synchronization

/// Produces one 4 KiB page of a ``LazyPages`` region (for an encrypted file: reads, checks and
/// decrypts it). Called at most once per page, possibly from several threads for different
/// pages at the same time.
public protocol PageProducer: AnyObject, Sendable {
  /// Writes page `page` of `pages` into its place, or throws why it cannot be read.
  func producePage(_ page: Int, of pages: LazyPages) throws(FormatError)
}

/// A region of memory whose 4 KiB pages are filled on first access: how the reader sees the
/// plaintext of an encrypted file without decrypting all of it up front.
///
/// ``ByteReader``'s checked reads (and ``ArrayNode``'s validation of a node's whole range, after
/// which it reads without checks) call ``prepare(offset:count:)``, so no byte of a page is read
/// before the page was produced. Safe to use from several threads: each page is produced once,
/// a thread that needs a page another thread is producing waits for it, and a page that failed
/// fails the same way for everybody.
public final class LazyPages: @unchecked Sendable {
  /// log2 of the page size.
  public static let pageShift = 12
  /// The page size (4096).
  public static let pageSize = 1 << pageShift

  @usableFromInline static let ready: UInt8 = 2
  static let absent: UInt8 = 0
  static let busy: UInt8 = 1
  static let failed: UInt8 = 3

  @usableFromInline let states: UnsafeMutablePointer<Atomic<UInt8>>
  /// Number of pages.
  public let pageCount: Int
  public let producer: any PageProducer
  let errors = Mutex<[Int: FormatError]>([:])

  /// A region of `pageCount` pages, none produced yet.
  public init(pageCount: Int, producer: any PageProducer) {
    self.pageCount = pageCount
    self.producer = producer
    states = .allocate(capacity: max(pageCount, 1))
    for i in 0..<max(pageCount, 1) { (states + i).initialize(to: Atomic(LazyPages.absent)) }
  }

  deinit {
    states.deinitialize(count: max(pageCount, 1))
    states.deallocate()
  }

  /// Makes the bytes `offset..<offset+count` readable, producing the pages they touch. The
  /// range must be inside the region (callers check bounds first).
  @inlinable
  public func prepare(offset: Int, count: Int) throws(FormatError) {
    guard count > 0 else { return }
    var page = offset >> LazyPages.pageShift
    let last = (offset &+ count &- 1) >> LazyPages.pageShift
    while page <= last {
      if states[page].load(ordering: .acquiring) != LazyPages.ready { try produce(page) }
      page &+= 1
    }
  }

  /// True when page `page` has been produced.
  public func isProduced(_ page: Int) -> Bool {
    states[page].load(ordering: .acquiring) == LazyPages.ready
  }

  @usableFromInline
  func produce(_ page: Int) throws(FormatError) {
    guard page >= 0, page < pageCount else {
      throw FormatError.truncated(at: page << LazyPages.pageShift, needed: 1, size: pageCount << LazyPages.pageShift)
    }
    while true {
      let (won, current) = states[page].compareExchange(
        expected: LazyPages.absent, desired: LazyPages.busy, ordering: .acquiring)
      if won {
        do {
          try producer.producePage(page, of: self)
        } catch {
          errors.withLock { $0[page] = error }
          states[page].store(LazyPages.failed, ordering: .releasing)
          throw error
        }
        states[page].store(LazyPages.ready, ordering: .releasing)
        return
      }
      switch current {
      case LazyPages.ready: return
      case LazyPages.failed:
        throw errors.withLock { $0[page] } ?? FormatError.corrupt("page \(page) cannot be read")
      default:
        // Another thread is producing it (a page takes microseconds).
        _ = LazyPages.yieldThread()
      }
    }
  }

  static func yieldThread() -> Int32 {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      return sched_yield_shim()
    #else
      return 0
    #endif
  }
}

#if canImport(Glibc)
  import Glibc
  @usableFromInline func sched_yield_shim() -> Int32 { sched_yield() }
#elseif canImport(Musl)
  import Musl
  @usableFromInline func sched_yield_shim() -> Int32 { sched_yield() }
#elseif canImport(Darwin)
  import Darwin
  @usableFromInline func sched_yield_shim() -> Int32 { sched_yield() }
#endif

/// LLVM's prefetch intrinsic (`prefetcht0` on x86, `prfm` on ARM): a hint that never faults and
/// is dropped where the page is not mapped. The standard library has no spelling of it.
@_silgen_name("llvm.prefetch.p0")
private func llvmPrefetch(_ address: UnsafeRawPointer, _ write: Int32, _ locality: Int32, _ cache: Int32)

extension ByteReader {
  /// Asks the processor to bring `count` bytes at `offset` (clipped to the data) into its
  /// caches ahead of their use, while other work goes on: a hint, never a read of the bytes.
  /// Lazy readers, whose pages may not be produced yet, are left alone.
  func prefetch(offset: Int, count: Int) {
    guard !isLazy, offset >= 0, offset < base.count, let start = base.baseAddress else { return }
    let end = min(base.count, offset &+ max(count, 1))
    var p = offset & ~63
    while p < end {
      llvmPrefetch(start + p, 0, 3, 1)
      p &+= 64
    }
  }
}

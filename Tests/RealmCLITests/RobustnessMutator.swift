import RealmStorage
import RealmTestBytes
import RealmTestSupport
import RealmFormat

/// The nodes of a Realm file, found by walking it from the top ref, and deterministic
/// mutations of its bytes aimed at them: the damage a robustness test feeds to the commands.
struct RobustnessMutator {
  /// One node reachable from the top array.
  struct Node {
    /// Where the node starts.
    var ref: Int
    /// The node that refers to it (0 for the top array).
    var parent: Int
    /// The decoded header.
    var header: NodeHeader
    /// Indices of elements that are refs (has-refs nodes only).
    var refSlots: [Int]
  }

  /// The kinds of damage.
  enum Kind: String, CaseIterable {
    case truncate, headerByte, footerByte, nodeHeaderByte, absurdCount, absurdWidth, payloadBytes
    case refOutside, refToSelf, refToAncestor, refShared, refMisaligned, absurdValue
  }

  /// The original bytes.
  let original: [UInt8]
  /// Every node reachable from the top ref (bounded by the file size).
  let nodes: [Node]

  /// Walks the file at `path` (which must be readable).
  init(path: String) throws {
    let file = try RealmFile.open(path: path)
    let reader = file.group.reader
    original = Array(reader.base)
    var nodes: [Node] = []
    var seen = Set<Int>()
    var stack: [(Int, Int)] = file.group.topRef.isNull ? [] : [(file.group.topRef.rawValue, 0)]
    while let (ref, parent) = stack.popLast(), nodes.count < original.count / 8 {
      guard seen.insert(ref).inserted, let node = try? ArrayNode(reader, Ref(ref)) else { continue }
      var slots: [Int] = []
      if node.hasRefs && node.header.widthType == .bits {
        for i in 0..<node.count {
          let v = node.uncheckedGet(i)
          guard v != 0, v & 1 == 0, v & 7 == 0, v < original.count, let child = Int(exactly: v) else { continue }
          slots.append(i)
          stack.append((child, ref))
        }
      }
      nodes.append(Node(ref: ref, parent: parent, header: node.header, refSlots: slots))
    }
    self.nodes = nodes
  }

  /// One mutated copy of the file and a description to reproduce it.
  func mutate(_ kind: Kind, _ random: inout SeededRandom) -> (bytes: [UInt8], description: String) {
    var bytes = original
    let size = bytes.count
    switch kind {
    case .truncate:
      // Mostly 8-aligned lengths (those pass the header's size check and reach the nodes).
      let length = Int.random(in: 0..<size, using: &random)
      let cut = Bool.random(using: &random) ? length & ~7 : length
      return (Array(bytes.prefix(cut)), "truncated to \(cut) bytes")
    case .headerByte:
      let at = Int.random(in: 0..<24, using: &random)
      bytes[at] = UInt8.random(in: 0...255, using: &random)
      return (bytes, "header byte \(at) = \(bytes[at])")
    case .footerByte:
      guard size >= 40 else { return mutate(.headerByte, &random) }
      let at = size - 1 - Int.random(in: 0..<16, using: &random)
      bytes[at] ^= UInt8.random(in: 1...255, using: &random)
      return (bytes, "footer byte \(at) = \(bytes[at])")
    default:
      guard !nodes.isEmpty else { return mutate(.headerByte, &random) }
    }
    let node = nodes[Int.random(in: 0..<nodes.count, using: &random)]
    let at = node.ref
    switch kind {
    case .nodeHeaderByte:
      let i = at + Int.random(in: 4..<8, using: &random)
      bytes[i] = UInt8.random(in: 0...255, using: &random)
      return (bytes, "node 0x\(hex(at)) header byte \(i - at) = \(bytes[i])")
    case .absurdCount:
      let count = [0, 1, 0xFFFF, 0xFF_FFFF, Int.random(in: 0...0xFF_FFFF, using: &random)].randomElement(using: &random) ?? 0
      bytes[at + 5] = UInt8(truncatingIfNeeded: count >> 16)
      bytes[at + 6] = UInt8(truncatingIfNeeded: count >> 8)
      bytes[at + 7] = UInt8(truncatingIfNeeded: count)
      return (bytes, "node 0x\(hex(at)) count = \(count)")
    case .absurdWidth:
      let flags = (bytes[at + 4] & 0xE0) | UInt8.random(in: 0...31, using: &random)
      bytes[at + 4] = flags
      return (bytes, "node 0x\(hex(at)) flags = 0x\(hex(Int(flags)))")
    case .payloadBytes:
      let payload = node.header.payloadSize
      guard payload > 0 else { return mutate(.nodeHeaderByte, &random) }
      var changed: [Int] = []
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let i = at + 8 + Int.random(in: 0..<payload, using: &random)
        bytes[i] = UInt8.random(in: 0...255, using: &random)
        changed.append(i)
      }
      return (bytes, "node 0x\(hex(at)) payload bytes at \(changed.map { hex($0) })")
    case .absurdValue:
      guard node.header.widthType == .bits, node.header.width >= 8, node.header.count > 0 else {
        return mutate(.payloadBytes, &random)
      }
      let i = Int.random(in: 0..<node.header.count, using: &random)
      let value: UInt64 = [UInt64.max, UInt64.max - 1, 0x7FFF_FFFF_FFFF_FFFE, 0xFF_FFFF << 1, 1 << 62]
        .randomElement(using: &random) ?? 0
      set(&bytes, node, i, value)
      return (bytes, "node 0x\(hex(at)) element \(i) = 0x\(hex(value))")
    default:
      break
    }
    // Ref rewrites: a has-refs node with at least one ref.
    let parents = nodes.filter { !$0.refSlots.isEmpty && $0.header.width >= 8 }
    guard let owner = parents.randomElement(using: &random), let slot = owner.refSlots.randomElement(using: &random) else {
      return mutate(.payloadBytes, &random)
    }
    let target: UInt64
    switch kind {
    case .refOutside:
      let beyond = UInt64((size + 7) & ~7) + 8 * UInt64.random(in: 0...1024, using: &random)
      target = [beyond, UInt64(size & ~7), 0x7FFF_FFFF_FFFF_FFF8, 0xFFFF_FFF8].randomElement(using: &random) ?? beyond
    case .refToSelf:
      target = UInt64(owner.ref)
    case .refToAncestor:
      var ancestors: [Int] = []
      var current = owner.parent
      while current != 0, ancestors.count < 64, let up = nodes.first(where: { $0.ref == current }) {
        ancestors.append(current)
        current = up.parent
      }
      target = UInt64(ancestors.randomElement(using: &random) ?? owner.ref)
    case .refShared:
      target = UInt64(nodes[Int.random(in: 0..<nodes.count, using: &random)].ref)
    default:  // .refMisaligned
      target = UInt64(owner.ref) + [2, 4, 6, 8, 16].randomElement(using: &random)!
    }
    set(&bytes, owner, slot, target)
    return (bytes, "\(kind) node 0x\(hex(owner.ref)) element \(slot) = 0x\(hex(target))")
  }

  /// A copy of the file with element `i` of `node` set to `value` (see ``set(_:_:_:_:)``).
  func with(_ node: Node, element i: Int, _ value: UInt64) -> [UInt8] {
    var bytes = original
    set(&bytes, node, i, value)
    return bytes
  }

  /// A copy of the file with the flags byte of `node` replaced.
  func with(_ node: Node, flags: UInt8) -> [UInt8] {
    var bytes = original
    bytes[node.ref + 4] = flags
    return bytes
  }

  /// Writes element `i` of `node` (a byte-aligned `.bits` node), truncated to its width.
  func set(_ bytes: inout [UInt8], _ node: Node, _ i: Int, _ value: UInt64) {
    let width = node.header.width / 8
    guard width > 0 else { return }
    let start = node.ref + 8 + i * width
    for b in 0..<width where start + b < bytes.count {
      bytes[start + b] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(b)))
    }
  }

  private func hex(_ v: Int) -> String { String(v, radix: 16) }
  private func hex(_ v: UInt64) -> String { String(v, radix: 16) }
}

// Files: mapping, locking, read and write transactions, encryption, file facts.
// See docs/Architecture.md.

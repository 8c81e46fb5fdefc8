# realmctl — build, test, demo, benchmark, install.
SWIFT ?= swift
PREFIX ?= /usr/local
BIN := .build/debug/realmctl
RELEASE_BIN := .build/release/realmctl
# The version, defined once in Sources/RealmCLI/Version/ReleaseVersion.swift (see `make version`).
VERSION := $(shell sed -n 's/^  public static let number = "\(.*\)"$$/\1/p' Sources/RealmCLI/Version/ReleaseVersion.swift)
# On Linux the release binary is a static executable: the Swift runtime, Foundation and the C
# library are inside it, so it runs on a machine without the Swift toolchain and starts in
# about 2 ms (9 linked against the shared Swift libraries, 3.6 with --static-swift-stdlib),
# which is a sixth of a small in-place migration. (The linker's warnings about getpwnam and
# dlopen in static programs: see README, "Installing".)
RELEASE_FLAGS ?= $(if $(filter Linux,$(shell uname -s)),-Xswiftc -static-executable,)

MANDIR ?= $(PREFIX)/share/man/man1
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d

.PHONY: build test docs demo bench fuzz man install dist dist-check version stamp clean

build: stamp
	$(SWIFT) build

# The commit, day and compiler of this build, for `realmctl --version` (an ignored Swift file,
# rewritten only when it changes; see scripts/build-stamp.sh).
stamp:
	@SWIFT="$(SWIFT)" bash scripts/build-stamp.sh

version:
	@echo $(VERSION)

# The whole suite, then a summary of the skipped tests and why (exit status: swift test's).
test:
	@SWIFT="$(SWIFT)" bash scripts/test.sh

# The DocC documentation of the library products, with the toolchain's docc, into
# .build/docs/<Module>/; fails on any docc warning (a broken symbol link). See scripts/docs.sh.
docs:
	@SWIFT="$(SWIFT)" bash scripts/docs.sh

# Coverage-guided fuzzing (libFuzzer + AddressSanitizer), FUZZ_SECONDS per target (default 180);
# FUZZ_TARGETS="reader jsonl" picks some. See docs/testing.md.
fuzz:
	@SWIFT="$(SWIFT)" bash scripts/fuzz.sh

demo: build
	@sh Examples/demo.sh $(BIN)

bench: stamp
	$(SWIFT) build -c release --product realmctl $(RELEASE_FLAGS)
	python3 scripts/bench.py $(RELEASE_BIN) docs/benchmarks.md

# The man page, generated from the command declarations (view it with: man ./realmctl.1).
man: build
	$(BIN) generate-manual > realmctl.1

# The binary, the man page and the bash, zsh and fish completions, under $(DESTDIR)$(PREFIX).
install: stamp
	$(SWIFT) build -c release --product realmctl $(RELEASE_FLAGS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHCOMPDIR) \
		$(DESTDIR)$(ZSHCOMPDIR) $(DESTDIR)$(FISHCOMPDIR)
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/realmctl
	$(RELEASE_BIN) generate-manual > $(DESTDIR)$(MANDIR)/realmctl.1
	$(RELEASE_BIN) completion bash > $(DESTDIR)$(BASHCOMPDIR)/realmctl
	$(RELEASE_BIN) completion zsh > $(DESTDIR)$(ZSHCOMPDIR)/_realmctl
	$(RELEASE_BIN) completion fish > $(DESTDIR)$(FISHCOMPDIR)/realmctl.fish
	chmod 644 $(DESTDIR)$(MANDIR)/realmctl.1 $(DESTDIR)$(BASHCOMPDIR)/realmctl \
		$(DESTDIR)$(ZSHCOMPDIR)/_realmctl $(DESTDIR)$(FISHCOMPDIR)/realmctl.fish

# The release archive of this machine and its checksum: dist/realmctl-$(VERSION)-OS-ARCH.tar.gz
# (Linux: the static binary of `make install`; macOS: universal arm64 + x86_64). See scripts/dist.sh.
dist: stamp
	@SWIFT="$(SWIFT)" VERSION="$(VERSION)" RELEASE_FLAGS="$(RELEASE_FLAGS)" bash scripts/dist.sh

# The archive of `make dist`, unpacked into an empty directory and checked (scripts/check-dist.sh).
dist-check: dist
	@REALMCTL_DIST_EXPECT_HEAD=1 bash scripts/check-dist.sh dist/realmctl-$(VERSION)-*.tar.gz

clean:
	rm -rf .build Examples/library/.build realmctl.1 dist

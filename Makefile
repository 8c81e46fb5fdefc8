# realmctl — build, test, demo, benchmark, install.
SWIFT ?= swift
PREFIX ?= /usr/local
BIN := .build/debug/realmctl
RELEASE_BIN := .build/release/realmctl

.PHONY: build test demo bench fuzz install clean

build:
	$(SWIFT) build

# The whole suite, then a summary of the skipped tests and why (exit status: swift test's).
test:
	@SWIFT="$(SWIFT)" bash scripts/test.sh

# Coverage-guided fuzzing (libFuzzer + AddressSanitizer), FUZZ_SECONDS per target (default 180);
# FUZZ_TARGETS="reader jsonl" picks some. See docs/testing.md.
fuzz:
	@SWIFT="$(SWIFT)" bash scripts/fuzz.sh

demo: build
	@sh Examples/demo.sh $(BIN)

bench:
	$(SWIFT) build -c release
	python3 scripts/bench.py $(RELEASE_BIN) docs/benchmarks.md

install:
	$(SWIFT) build -c release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/realmctl

clean:
	rm -rf .build

#!/usr/bin/env bash
# make fuzz: builds the libFuzzer executables of FuzzTesting/ and runs each target for a set time
# on a corpus seeded from Tests/Fixtures. See docs/testing.md, "Fuzzing".
#
#   FUZZ_SECONDS   seconds per target (default 180)
#   FUZZ_TARGETS   targets to run, separated by spaces (default: all of FuzzTesting/Package.swift)
#   FUZZ_JOBS      parallel fuzzing processes per target (default 1)
#   FUZZ_CONFIG    release (default) or debug
#   FUZZ_FLAGS     more libFuzzer flags, e.g. "-max_len=65536"
#
# Corpora grow in FuzzTesting/.corpus/<target>/ from run to run; findings (crash-*, timeout-*,
# oom-*, slow-unit-*) land in FuzzTesting/.findings/<target>/, logs in FuzzTesting/.logs/ (all
# git-ignored). libFuzzer stops at a crash, a hang or an out-of-memory input: the target is
# then started again on the same corpus until its time is spent. Exit status 1 when a target
# found something.
set -uo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
FUZZ_SECONDS=${FUZZ_SECONDS:-180}
FUZZ_JOBS=${FUZZ_JOBS:-1}
FUZZ_CONFIG=${FUZZ_CONFIG:-release}
FUZZ_FLAGS=${FUZZ_FLAGS:-}
all_targets=$(sed -n 's/^let targets = \[\(.*\)\]/\1/p' FuzzTesting/Package.swift | tr -d '",' | xargs)
FUZZ_TARGETS=${FUZZ_TARGETS:-$all_targets}

for target in $FUZZ_TARGETS; do
  case " $all_targets " in
    *" $target "*) ;;
    *) echo "make fuzz: no target '$target' (targets: $all_targets)" >&2; exit 64 ;;
  esac
done

# On Linux the toolchain's lld links the targets: gold, the default there, stops with "internal
# error in format_file_lineno" when it reports a symbol of the sanitizer runtime in objects of
# Swift 6.3 (any -sanitize=fuzzer executable, even an empty one).
linker=()
if [ "$(uname -s)" = Linux ] && command -v ld.lld >/dev/null 2>&1; then linker=(-Xswiftc -use-ld=lld); fi

echo "== Building the fuzz targets ($FUZZ_CONFIG, -sanitize=fuzzer,address)"
# (The linker warns about every AddressSanitizer helper symbol; those lines are left out.)
"$SWIFT" build --package-path FuzzTesting -c "$FUZZ_CONFIG" -Xswiftc -sanitize=fuzzer,address -Xswiftc -g \
  ${linker[@]+"${linker[@]}"} 2>&1 \
  | grep -v "Cannot export local symbol"
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "make fuzz: the build failed" >&2; exit 2; }
bin=$("$SWIFT" build --package-path FuzzTesting -c "$FUZZ_CONFIG" --show-bin-path)

# Swift's own crash backtracer would run (slowly) inside every crash libFuzzer provokes.
export SWIFT_BACKTRACE=enable=no
parallel=()
[ "$FUZZ_JOBS" -gt 1 ] && parallel=(-jobs="$FUZZ_JOBS" -workers="$FUZZ_JOBS")
artifacts() { find "$1" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'slow-unit-*' -o -name 'leak-*' \) | wc -l; }
found=0
summary=()
mkdir -p FuzzTesting/.logs
for target in $FUZZ_TARGETS; do
  corpus=FuzzTesting/.corpus/$target
  findings=FuzzTesting/.findings/$target
  mkdir -p "$corpus" "$findings"
  "$bin/fuzz-$target" --write-seeds "$corpus" || exit 2
  before=$(artifacts "$findings")
  log=FuzzTesting/.logs/$target.log
  : >"$log"
  echo "== fuzz-$target for ${FUZZ_SECONDS}s (log: $log)"
  start=$(date +%s)
  runs=0
  executed=0
  while :; do
    left=$(( FUZZ_SECONDS - ($(date +%s) - start) ))
    [ "$left" -gt 0 ] && [ "$runs" -lt 50 ] || break
    runs=$((runs + 1))
    # -timeout: an input over 10 s is a hang; -rss_limit_mb / -malloc_limit_mb: over 2 GiB in
    # all, or 1 GiB in one allocation, is out-of-memory; -report_slow_units: an input over 2 s
    # is kept as slow-unit-*.
    # shellcheck disable=SC2086
    "$bin/fuzz-$target" "$corpus" -artifact_prefix="$findings/" -max_total_time="$left" \
      -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -report_slow_units=2 \
      -detect_leaks=0 -print_final_stats=1 ${parallel[@]+"${parallel[@]}"} $FUZZ_FLAGS >"$log.run" 2>&1
    status=$?
    if [ "$FUZZ_JOBS" -gt 1 ]; then cat fuzz-*.log >>"$log.run" 2>/dev/null; rm -f fuzz-*.log; fi
    cat "$log.run" >>"$log"
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log.run" | awk '{s += $1} END {print s + 0}')
    executed=$((executed + n))
    if [ "$status" -ne 0 ]; then
      grep -E '^(==[0-9]+==ERROR|SUMMARY|realmctl fuzz target|Fatal error|artifact_prefix)' "$log.run" | head -8
    fi
  done
  rm -f "$log.run"
  cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | sed -E 's/.*(cov: [0-9]+ ft: [0-9]+ corp: [0-9]+\/[0-9]+[a-zA-Z]*).*/\1/')
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | sort -n | tail -1)
  new=$(( $(artifacts "$findings") - before ))
  line="$executed inputs in $(( $(date +%s) - start ))s, $cov, peak rss ${rss:-?} MB"
  if [ "$new" -gt 0 ]; then
    found=1
    summary+=("fuzz-$target: FOUND $new (see $findings): $line")
  else
    summary+=("fuzz-$target: nothing found: $line")
  fi
done

echo
echo "== make fuzz: ${FUZZ_SECONDS}s per target"
printf '%s\n' "${summary[@]}"
if [ "$found" -ne 0 ]; then
  echo "Reproduce: $bin/fuzz-<target> <file>; keep each input in Tests/FuzzCases/<target>/ with its fix."
fi
exit "$found"

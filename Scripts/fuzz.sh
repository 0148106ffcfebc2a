#!/usr/bin/env bash
# Fuzzes the predicate parser, printer and evaluator with libFuzzer and AddressSanitizer.
#
#   Scripts/fuzz.sh [SECONDS [LIBFUZZER FLAGS...]]      # default 600
#
# Extra flags go to libFuzzer, e.g. keep going after a finding and collect them all:
#   Scripts/fuzz.sh 1200 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1
#
# Builds Fuzz/PredicateFuzzTarget.swift together with Sources/PredicateLanguage into
# .build/fuzz/predicate-fuzzer, runs it for SECONDS on a working copy of Fuzz/corpus,
# then merges the inputs that add coverage back into Fuzz/corpus (commit them).
# A crash leaves its input in .build/fuzz/ (crash-*, timeout-*, oom-*): add a
# regression test for it to Tests/PredicateLanguageTests/Hardening/.
set -euo pipefail
# Swift's own crash backtracer confuses AddressSanitizer; libFuzzer prints the stack.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true
out=.build/fuzz
mkdir -p "$out/work"

echo "fuzz: building"
swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name PredicateLanguage \
    -I Sources/CFoundationICU -L /opt/swift/usr/lib/swift/linux -l_FoundationICU \
    $(find Sources/PredicateLanguage -name '*.swift' | sort) Fuzz/PredicateFuzzTarget.swift \
    -o "$out/predicate-fuzzer" 2> >(grep -v 'Cannot export local symbol' >&2)

cp -n Fuzz/corpus/* "$out/work/" 2>/dev/null || true
# Leak detection is off: swift-corelibs-foundation's NSRegularExpression never frees ~600 bytes
# of every pattern longer than a few hundred characters (Fuzz/README.md, run of 2026-11-22);
# memory growth is still bounded by -rss_limit_mb.
echo "fuzz: running for ${seconds}s"
set +e
"$out/predicate-fuzzer" "$out/work" -dict=Fuzz/predicate.dict -max_total_time="$seconds" \
    -timeout=5 -rss_limit_mb=4096 -detect_leaks=0 -max_len=2048 -print_final_stats=1 -artifact_prefix="$out/" "$@" 2>&1 \
    | grep -E '^(#[0-9]+ +(DONE|pulse|INITED)|#[0-9]+: cov|stat::|==|FUZZ|  (input|detail|reprinted):|SUMMARY|artifact|Done|INFO: (exiting|fuzzed|log)|CRASH)' | tail -n 60
status=${PIPESTATUS[0]}
set -e
echo "fuzz: merging new coverage into Fuzz/corpus"
mkdir -p Fuzz/corpus
"$out/predicate-fuzzer" -merge=1 Fuzz/corpus "$out/work" -max_len=2048 2>&1 | grep -E 'MERGE-OUTER: [0-9]+ new files' || true
exit "$status"

#!/usr/bin/env bash
# Runs the concurrency tests under Thread Sanitizer.
#
#   Scripts/tsan.sh [FILTER]      # default: the concurrent evaluation suite and the evaluator tests
#
# Why a filter: the whole suite under TSan takes many times longer than normal and most of it
# is single-threaded (TSan finds races only where threads meet). The default filter runs the
# tests that share compiled predicates, matchers and caches between tasks and threads
# (Hardening/ConcurrentEvaluationTests) plus the evaluator suites whose code they exercise.
# The build is a separate one (.build/tsan), so the first run compiles everything.
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:-ConcurrentEvaluationTests|EvaluationTests|ParserRobustnessTests}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
start=$(date +%s)
status=0
swift test --enable-all-traits --scratch-path .build/tsan --sanitize=thread --filter "$filter" || status=$?
echo "tsan: filter '$filter', exit status $status, $(( $(date +%s) - start ))s"
exit "$status"

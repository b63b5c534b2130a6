#!/usr/bin/env bash
# THE test command: set up .venv (tools/ensure-venv.sh: pip install -e
# '.[test]' when missing or older than setup.cfg), then run every test
# level -- unit (with faults beside it), functional+upgrade, docs -- each
# with pytest-xdist, with a header per level and a summary of the wall
# time of each.
#
# PostgreSQL (127.0.0.1:5432, postgres), MariaDB (127.0.0.1:3306, root) and
# RabbitMQ (127.0.0.1:5672, guest) are used when they answer; otherwise
# those tests are skipped with the reason -- or fail when CI=true.
#
# Extra arguments go to pytest (e.g. -k migrations, -m "not backend");
# test paths (tests/...) replace the levels: one pytest run of those
# (in this process when they are the tests of one file).
# TEST_WORKERS sets the number of xdist workers of every level (0: none,
# one test at a time, in this process).  TEST_VENV runs the tests with that
# virtualenv's python instead of setting up .venv (tox -e py3 does).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${TEST_VENV:-}" ]; then
    venv=$TEST_VENV
else
    VENV_EXTRAS=test
    . tools/ensure-venv.sh
    venv=.venv
fi
python=$venv/bin/python

# This tree's own modules to bytecode, once, before any test: where
# PYTHONDONTWRITEBYTECODE is set (this project's CI machines), nothing
# caches what a process compiles, and each of the hundreds of service and
# command processes the tests start compiled ironic_lite again -- about a
# second of CPU each, a quarter of a functional test's CPU.  (The venv's
# packages are compiled when installed, tools/ensure-venv.sh.)  A module
# edited later is compiled afresh: Python checks the source's time stamp.
"$python" -m compileall -q -j 0 ironic_lite tests tools >/dev/null ||
    echo "warning: could not compile the tree to bytecode" >&2

# level name, default workers, xdist distribution, test paths.  The docs
# level is CPU bound (one worker per core).  The unit tests wait for the
# database servers part of the time (their own CPU is about 60 % of their
# wall time, TEST_CPU_LOG in tests/conftest.py): three workers, 193 s
# against 228 s on two (beside the fault tests, one machine, the same
# tree).  The functional and
# upgrade tests partly wait for the processes they start, so they run as
# one level on four workers (two per core), longest first ("longest":
# --dist load --maxschedchunk 1, with the order of the "long" markers, see
# tests/conftest.py): the rolling upgrade, the longest test by far, runs
# beside the rest instead of after it.  (Handing out whole files, --dist
# loadfile, set each Keystone up once but left one worker with the three
# slowest files: slower.  Six workers kept the two cores busy 96 % of the
# level, and every test's CPU grew with the contention -- a rolling
# upgrade's load and its services' periodic work run for as long as the
# test is stretched, process starts thrash the caches -- so the level took
# longer than on four: 635 s and 1,088 CPU-seconds of its tests against
# 605 s and 943, busy 82 %, the same tree on one machine, TEST_CPU_LOG in
# tests/conftest.py.)  The fault tests (a cluster each, with timed outages)
# run one at a time -- beside the unit level, not after it: their processes
# mostly wait (for a kill, a cut, a recovery), they reach the shared
# servers only through their own proxies and databases, and they wait for
# what they expect with a hang's bound, never a CPU-tight timer.  Their
# output is shown when the unit level ends.  The HA smoke scenarios
# (tests/ha) mostly wait as well: beside the functional tests.
LEVELS=(
    "unit 3 load tests/unit"
    "functional+upgrade 4 longest tests/functional tests/upgrade tests/ha"
    "docs auto load tests/docs"
)
BESIDE_UNIT="faults 1 load tests/faults"

run_pytest() {
    local workers=$1 dist=$2
    shift 2
    if [ "$workers" = 0 ]; then
        "$python" -m pytest "$@"
    elif [ "$dist" = longest ]; then
        "$python" -m pytest -n "$workers" --dist load \
            --maxschedchunk 1 "$@"
    else
        "$python" -m pytest -n "$workers" --dist "$dist" "$@"
    fi
}

# Test paths: one xdist worker per core -- but for the tests of one file,
# none: starting the workers (each imports and collects what this process
# does) costs more than running a file's tests one after another saves,
# for all but the longest files (tests/unit/api/test_contract_fuzz.py,
# test_acl.py: TEST_WORKERS=auto there).
path_workers() {
    local files=() arg
    for arg in "$@"; do
        case "$arg" in
            tests*) files+=("${arg%%::*}") ;;
        esac
    done
    if [ "$(printf '%s\n' "${files[@]}" | sort -u | wc -l)" = 1 ] \
            && [ -f "${files[0]}" ]; then
        echo 0
    else
        echo auto
    fi
}

for arg in "$@"; do
    case "$arg" in
        tests*)
            run_pytest "${TEST_WORKERS:-$(path_workers "$@")}" load "$@"
            exit $?
            ;;
    esac
done

failed=()
summary=()
total_start=$SECONDS
# Of the HA scenarios (tests/ha: clustered engines, a member killed under
# load), the levels run one per engine, those marked ha_smoke; tox -e ha
# and a run naming tests/ha run every one (tests/ha/conftest.py).
export IRONIC_LITE_HA_SMOKE_ONLY=${IRONIC_LITE_HA_SMOKE_ONLY:-1}

# What the functional and upgrade levels install once (Keystone, the cut
# releases) is built in the background meanwhile (tests/prefetch.py): on a
# fresh machine that overlaps a few minutes of pip with the unit level.
# The fixtures wait for a build under way, and retry one that failed.
prefetch_log=$venv/prefetch.log
nice -n 5 "$python" -m tests.prefetch >"$prefetch_log" 2>&1 &
prefetch_pid=$!
trap 'kill "$prefetch_pid" 2>/dev/null || true' EXIT
# record NAME CODE START: a level's line in the summary.
record() {
    local result
    case $2 in
        0) result=passed ;;
        5) result="no tests" ;;     # e.g. -k or -m selected none here
        *) result=FAILED; failed+=("$1") ;;
    esac
    summary+=("$(printf '%-10s %-8s %4ds' "$1" "$result" \
        $((SECONDS - $3)))")
}

# The level run beside the unit level, its output kept in a log until the
# unit level ends (two pytest outputs interleaved would be unreadable).
beside_log=$venv/faults.log
read -r beside_name beside_workers beside_dist beside_paths <<<"$BESIDE_UNIT"
beside_workers=${TEST_WORKERS:-$beside_workers}
beside_start=$SECONDS
# shellcheck disable=SC2086 # paths: one or more, split on spaces
run_pytest "$beside_workers" "$beside_dist" $beside_paths --durations=5 \
    "$@" >"$beside_log" 2>&1 &
beside_pid=$!
trap 'kill "$prefetch_pid" "$beside_pid" 2>/dev/null || true' EXIT

count=$((${#LEVELS[@]} + 1))
i=0
for level in "${LEVELS[@]}"; do
    read -r name workers dist paths <<<"$level"
    i=$((i + 1))
    workers=${TEST_WORKERS:-$workers}
    echo
    echo "=== [$i/$count] $name tests ($paths, $workers workers) ==="
    start=$SECONDS
    code=0
    # --durations: each level names its slowest tests, to keep it fast.
    # shellcheck disable=SC2086 # paths: one or more, split on spaces
    run_pytest "$workers" "$dist" $paths --durations=5 "$@" || code=$?
    record "$name" "$code" "$start"
    if [ "$name" = unit ]; then
        i=$((i + 1))
        echo
        echo "=== [$i/$count] $beside_name tests ($beside_paths," \
            "$beside_workers workers, run beside the unit level) ==="
        code=0
        wait "$beside_pid" || code=$?
        cat "$beside_log"
        record "$beside_name" "$code" "$beside_start"
    fi
done

wait "$prefetch_pid" 2>/dev/null || true
echo
echo "=== summary ==="
sed 's/^/    /' "$prefetch_log"
printf '%s\n' "${summary[@]}"
echo "total: $((SECONDS - total_start))s"
if [ ${#failed[@]} -gt 0 ]; then
    echo "FAILED levels: ${failed[*]}"
    exit 1
fi

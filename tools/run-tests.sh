#!/usr/bin/env bash
# THE test command: set up .venv (python3 -m venv; pip install -e '.[test]'
# when missing or older than setup.cfg), then run every test level:
# tests/unit, tests/functional and tests/upgrade.
#
# PostgreSQL (127.0.0.1:5432, postgres), MariaDB (127.0.0.1:3306, root) and
# RabbitMQ (127.0.0.1:5672, guest) are used when they answer; otherwise
# those tests are skipped with the reason -- or fail when CI=true.
# Extra arguments go to pytest (e.g. -k migrations, -m "not backend",
# or test paths, which then replace the default "tests/").
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/ensure-venv.sh
target=tests/
for arg in "$@"; do
    case "$arg" in
        tests*) target= ;;
    esac
done
exec .venv/bin/python -m pytest $target "$@"

#!/usr/bin/env bash
# Set up ironic-lite in .venv (the service's libraries only: the test
# command adds the rest) and start it on its embedded default:
# API and conductor in one process, SQLite under ~/.local/state/ironic-lite,
# the in-process fake:// transport, http://127.0.0.1:6385.
# Extra arguments go to ironic-lite (e.g. --port 7000, --host 0.0.0.0,
# --config-file ironic.conf).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/ensure-venv.sh
exec .venv/bin/ironic-lite "$@"

#!/usr/bin/env bash
# Set up ironic-lite in .venv and start it on its embedded default:
# API and conductor in one process, SQLite under ~/.local/state/ironic-lite,
# the in-process fake:// transport, http://0.0.0.0:6385.
# Extra arguments go to ironic-lite (e.g. --config-file ironic.conf).
set -euo pipefail
cd "$(dirname "$0")/.."
. tools/ensure-venv.sh
exec .venv/bin/ironic-lite "$@"

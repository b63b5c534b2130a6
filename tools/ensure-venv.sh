# Sourced by the tools/run-*.sh scripts: create .venv and install
# ironic-lite (editable, with the test extras) when it is missing or older
# than setup.cfg.
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ] || [ setup.cfg -nt .venv/.installed ]; then
    "$PYTHON" -m venv .venv
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e '.[test]'
    touch .venv/.installed
fi

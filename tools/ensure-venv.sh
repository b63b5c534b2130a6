# Sourced by the tools/run-*.sh scripts: create .venv and install
# ironic-lite (editable, with the test extras) when it is missing or older
# than setup.cfg.  pip's own output goes to .venv/install.log (shown when
# the install fails); the terminal gets one line per step.
PYTHON=${PYTHON:-python3}
if [ -f .venv ] && [ ! -L .venv ]; then
    # A PEP 832 redirect file (tox >= 4.6x writes one naming a .tox
    # environment unless tox.ini says venv_redirect = false): ours is a
    # directory.  tox rewrites the file whenever it needs it.
    echo "Replacing the .venv redirect file (to $(head -n 1 .venv))" \
         "with ironic-lite's own .venv directory" >&2
    rm -f .venv
fi
if [ ! -x .venv/bin/python ] || [ setup.cfg -nt .venv/.installed ]; then
    _venv_start=$SECONDS
    echo "Setting up .venv: ironic-lite and its test dependencies" \
         "(about a minute the first time; log: .venv/install.log)" >&2
    "$PYTHON" -m venv .venv
    if ! { .venv/bin/python -m pip install --upgrade pip &&
           .venv/bin/python -m pip install -e '.[test]'; } \
            >.venv/install.log 2>&1; then
        tail -n 40 .venv/install.log >&2
        echo "ERROR: installing ironic-lite into .venv failed;" \
             "the whole log is .venv/install.log" >&2
        exit 1
    fi
    touch .venv/.installed
    echo ".venv ready in $((SECONDS - _venv_start)) s" >&2
fi

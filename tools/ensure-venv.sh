# Sourced by the tools/run-*.sh scripts: create .venv and install
# ironic-lite into it (editable) when it is missing or older than setup.cfg.
#
# VENV_EXTRAS says what the caller needs: unset or empty, the service's
# runtime only (tools/run-service.sh); "test", also everything the tests
# use (tools/run-tests.sh: pytest, the clients, sphinx, reno...).  A venv
# set up for the tests serves the service too.
#
# The installer's output goes to .venv/install.log (its end is shown when
# the install fails); the terminal gets a line per step, and on a terminal
# a progress line.
PYTHON=${PYTHON:-python3}
if [ -f .venv ] && [ ! -L .venv ]; then
    # A PEP 832 redirect file (tox >= 4.6x writes one naming a .tox
    # environment unless tox.ini says venv_redirect = false): ours is a
    # directory.  tox rewrites the file whenever it needs it.
    echo "Replacing the .venv redirect file (to $(head -n 1 .venv))" \
         "with ironic-lite's own .venv directory" >&2
    rm -f .venv
fi

# _venv_current MARKER: the venv exists and MARKER is newer than setup.cfg.
_venv_current() {
    [ -x .venv/bin/python ] && [ -e "$1" ] && ! [ setup.cfg -nt "$1" ]
}

# _venv_run COMMAND...: run it with its output appended to install.log; on
# a terminal, a progress line (seconds, and the log's last line) meanwhile.
_venv_run() {
    "$@" >>.venv/install.log 2>&1 &
    local pid=$! began=$SECONDS last
    if [ -t 2 ]; then
        while kill -0 "$pid" 2>/dev/null; do
            last=$(tail -n 1 .venv/install.log | tr -d '\r' | cut -c 1-60)
            printf '\r\033[K  %3d s  %s' $((SECONDS - began)) "$last" >&2
            sleep 1
        done
        printf '\r\033[K' >&2
    fi
    wait "$pid"
}

_venv_pip() {
    _venv_run .venv/bin/python -m pip --disable-pip-version-check "$@"
}

# pip 21.3 is the first that installs a setup.cfg project editable
# (PEP 660); the venv's own pip comes from the interpreter.
_venv_pip_is_new() {
    .venv/bin/python - <<'EOF_PY'
import sys
from pip import __version__ as v
sys.exit(0 if tuple(int(p) for p in v.split('.')[:2]) >= (22, 0) else 1)
EOF_PY
}

# _venv_install ARGS...: "pip install ARGS" into .venv.  uv (one wheel,
# installed into .venv by pip) downloads and installs the hundred-odd
# packages in parallel: a fresh service venv in a fraction of pip's time.
# Where uv cannot be had, pip does it all.  Both compile the modules to
# bytecode at install time: where PYTHONDONTWRITEBYTECODE is set (as on
# this project's CI machines), a process never caches what it compiles,
# and every command and service start would compile its imports again
# (the test suite's CPU time doubled without it).
_venv_install() {
    [ -x .venv/bin/uv ] || _venv_pip install uv || true
    if [ -x .venv/bin/uv ]; then
        UV_LINK_MODE=copy _venv_run .venv/bin/uv pip install \
            --compile-bytecode --python .venv/bin/python "$@"
    else
        if ! _venv_pip_is_new >/dev/null 2>&1; then
            _venv_pip install --upgrade pip || return 1
        fi
        _venv_pip install "$@"
    fi
}

_venv_setup() {
    local what=$1 target=$2 marker=$3 start=$SECONDS
    echo "Setting up .venv: $what (log: .venv/install.log)" >&2
    "$PYTHON" -m venv .venv && : >.venv/install.log || return 1
    _venv_install -e "$target" || return 1
    touch "$marker"
    echo ".venv ready in $((SECONDS - start)) s" >&2
}

if [ "${VENV_EXTRAS:-}" = test ]; then
    if ! _venv_current .venv/.installed-test; then
        _venv_setup "ironic-lite and its test dependencies" '.[test]' \
            .venv/.installed-test ||
            _venv_failed=1
    fi
elif ! _venv_current .venv/.installed-service &&
        ! _venv_current .venv/.installed-test; then
    _venv_setup "ironic-lite (the service's libraries only)" . \
        .venv/.installed-service || _venv_failed=1
fi
if [ -n "${_venv_failed:-}" ]; then
    tail -n 40 .venv/install.log >&2
    echo "ERROR: installing ironic-lite into .venv failed;" \
         "the whole log is .venv/install.log" >&2
    exit 1
fi

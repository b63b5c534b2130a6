"""Where the console scripts (``setup.cfg``) enter: ``run_<module>``
imports ``ironic_lite.cmd.<module>`` with Python's cyclic garbage
collector paused, freezes what the imports made (``gc.freeze``: into a
generation no collection scans again), resumes it and runs ``main``.

Importing a service's modules leaves some 260,000 objects that the
collector tracks, and its full passes over them while the imports ran
took about a fifth of the CPU of an ``ironic-api`` start (230 of 1,250
ms), more of a short command's (``ironic-status --help``: 0.94 -> 0.52
CPU-seconds); the tests start hundreds of services and commands.
Modules and classes live as long as the process: a later full pass in
a running service would only walk them again, so frozen they take
nothing more from a request's time.  And the collector never again
writes to a frozen object's header, so the API worker processes forked
after the imports (``common/workers.py``) share more of their parent's
pages.
"""

import gc
import importlib


def _run(name):
    gc.disable()
    try:
        module = importlib.import_module('ironic_lite.cmd.' + name)
    finally:
        gc.freeze()
        gc.enable()
    return module.main()


def run_api():
    return _run('api')


def run_conductor():
    return _run('conductor')


def run_lite():
    return _run('lite')


def run_dbsync():
    return _run('dbsync')


def run_status():
    return _run('status')

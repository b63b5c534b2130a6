"""Issue 41: tools/install_release.py tells the packages pip starts on,
and their rate, as it goes (common/progress.py), and keeps pip's whole
output in the build log."""

import io
import sys

import pytest

from ironic_lite.common import progress
from tools import install_release

PIP_OUTPUT = ('Processing ./src\\n'
              'Collecting oslo.config\\n'
              '  Using cached oslo.config.whl\\n'
              'Collecting sushy\\n'
              'Successfully installed oslo.config sushy\\n')


def test_pip_packages_counted_and_logged():
    log, err = io.StringIO(), io.StringIO()
    told = progress.Progress('installing', unit='packages', stream=err,
                             interval=0)
    install_release._run_pip(
        [sys.executable, '-c', 'print("%s", end="")' % PIP_OUTPUT], log,
        60, told)
    assert told.done == 3
    assert 'Collecting sushy' in log.getvalue()
    lines = err.getvalue().splitlines()
    assert lines[-1].startswith('installing: 3 packages, ')
    assert lines[-1].endswith(' packages/s')


def test_pip_failure_is_an_install_error():
    told = progress.Progress('installing', stream=io.StringIO())
    with pytest.raises(install_release.InstallError) as failed:
        install_release._run_pip(
            [sys.executable, '-c', 'raise SystemExit(3)'], io.StringIO(),
            60, told)
    assert 'exited 3' in str(failed.value)

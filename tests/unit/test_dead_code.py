"""No dead code: vulture finds nothing unexplained in ironic_lite/.

What vulture cannot see used (pecan handlers, framework hooks, the
microversion history...) is listed, with the reason, in
tools/vulture_allowlist.py.  A name it reports beyond those is dead: delete
it (or, if something outside Python calls it, add it there with why).
A name listed there that vulture no longer reports is stale: it would hide
the next dead name of that spelling.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
ALLOWLIST = os.path.join('tools', 'vulture_allowlist.py')
MIN_CONFIDENCE = '60'


def _vulture(*paths):
    return subprocess.run(
        [sys.executable, '-m', 'vulture', 'ironic_lite', *paths,
         '--min-confidence', MIN_CONFIDENCE],
        cwd=ROOT, capture_output=True, text=True)


def test_vulture_finds_nothing_unexplained():
    result = _vulture(ALLOWLIST)
    assert result.returncode == 0 and not result.stdout, (
        'vulture (--min-confidence %s) reports unused code:\n%s%s'
        % (MIN_CONFIDENCE, result.stdout, result.stderr))


def test_every_allowlisted_name_is_still_reported():
    reported = set(re.findall(r"unused \w+ '(\w+)'", _vulture().stdout))
    with open(os.path.join(ROOT, ALLOWLIST)) as f:
        listed = set(re.findall(r'^(?:_\.)?(\w+)', f.read(), re.M))
    assert sorted(listed - reported) == [], (
        'stale lines in %s: vulture no longer reports these names'
        % ALLOWLIST)

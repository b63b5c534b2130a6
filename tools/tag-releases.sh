#!/usr/bin/env bash
# Create the git tag of every release recorded in releases/releases.json
# (a lightweight tag named after the release, at its recorded commit) when
# it is missing.  reno reads release versions from tags; a fresh clone may
# come without them, the recorded commits are always in main's history.
# Usage: tools/tag-releases.sh [REPOSITORY]   (default: this checkout)
set -euo pipefail
repo=${1:-$(cd "$(dirname "$0")/.." && pwd)}
python3 - "$repo" <<'PY'
import json, os, subprocess, sys
repo = sys.argv[1]
with open(os.path.join(repo, 'releases', 'releases.json')) as f:
    releases = json.load(f)['releases']
for name, info in releases.items():
    exists = subprocess.run(['git', '-C', repo, 'rev-parse', '-q', '--verify',
                             'refs/tags/' + name], capture_output=True)
    if exists.returncode != 0:
        subprocess.run(['git', '-C', repo, 'tag', name, info['commit']],
                       check=True)
        print('tagged %s at %s' % (name, info['commit']))
PY

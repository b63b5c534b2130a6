#!/usr/bin/env python3
"""Write doc/source/api/reference.rst from the request contract."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from ironic_lite.api.schemas import reference  # noqa: E402


def main():
    output = os.path.join(ROOT, reference.OUTPUT)
    with open(output, 'w') as f:
        f.write(reference.render())
    print('wrote %s' % reference.OUTPUT)


if __name__ == '__main__':
    main()

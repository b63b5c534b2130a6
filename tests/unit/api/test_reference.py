"""The committed API reference page is what the request contract says.

doc/source/api/reference.rst is generated from ironic_lite/api/schemas
(like the configuration and policy samples): a route, parameter or body
field changed without regenerating it would make the page lie.
"""

import difflib
import os

import pytest

from ironic_lite.api.schemas import reference

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def test_api_reference_is_current():
    path = os.path.join(ROOT, reference.OUTPUT)
    assert os.path.exists(path), (
        '%s is missing: run "tox -e genapiref"' % reference.OUTPUT)
    with open(path) as f:
        committed = f.read()
    generated = reference.render()
    if committed != generated:
        diff = ''.join(difflib.unified_diff(
            committed.splitlines(True), generated.splitlines(True),
            reference.OUTPUT, 'regenerated', n=1))
        pytest.fail('%s is out of date: run "tox -e genapiref" (python '
                    'tools/gen-api-reference.py) and commit the result.\n%s'
                    % (reference.OUTPUT, diff[:4000]))


def test_reference_names_every_route():
    from ironic_lite.api import route_table
    text = reference.render()
    for route in route_table.ROUTES:
        if not route.listed:
            continue
        assert '%s %s\n' % (route.method, route.path) in text


def test_read_only_fields_are_listed_once():
    from ironic_lite.api import route_table
    for route in route_table.ROUTES:
        assert len(set(route.read_only)) == len(route.read_only), (
            route.method, route.path, route.read_only)

"""Models and objects agree (Cinder's guard): a field an object requires
(not nullable) must be a column that can never be NULL on a row written by
any release's code -- NOT NULL, or with a default."""

import pytest

from ironic_lite.db import migration as db_migration
from ironic_lite.db import models
from ironic_lite import objects

objects.register_all()
TABLES = db_migration.object_tables()


def _required_fields(cls):
    return [name for name, field in cls.fields.items()
            if not field.nullable]


@pytest.mark.parametrize('name', sorted(TABLES))
def test_required_fields_cannot_be_null_in_db(name):
    table = TABLES[name].__table__
    for field in _required_fields(getattr(objects, name)):
        if field not in table.c:
            continue  # computed, not stored
        column = table.c[field]
        assert (not column.nullable or column.default is not None
                or column.server_default is not None
                or column.primary_key), (
            '%s.%s is required by the object but %s.%s may be NULL'
            % (name, field, table.name, field))


@pytest.mark.parametrize('name', sorted(TABLES))
def test_object_fields_are_columns(name):
    table = TABLES[name].__table__
    cls = getattr(objects, name)
    missing = (set(cls.fields) - set(table.c.keys())
               - set(getattr(cls, 'STORED_ELSEWHERE', ())))
    assert not missing, '%s fields without a column: %s' % (name, missing)


@pytest.mark.parametrize('name', sorted(TABLES))
def test_every_object_table_has_a_version_column(name):
    column = TABLES[name].__table__.c['version']
    assert column.nullable  # filled by the writer; NULL = unknown/legacy


def test_json_columns_read_what_json_dumps_wrote():
    """A JSON column is read by orjson, and by the standard library when
    orjson refuses what ``json.dumps`` wrote: NaN, an integer beyond 64
    bits (``extra`` takes any JSON a client sends)."""
    import math

    column = models.JSONEncodedDict()
    for value in ({'a': [1, 2.5, None, True, 'é']}, {'big': 2 ** 70 + 1},
                  {'neg': -(2 ** 64) - 1, 'max': 2 ** 63 - 1},
                  {'nested': {'x': {}}}, {}):
        text = column.process_bind_param(value, None)
        read = column.process_result_value(text, None)
        assert read == value
        assert ([type(v) for v in read.values()]
                == [type(v) for v in value.values()])
    nan = column.process_result_value(
        column.process_bind_param({'n': float('nan')}, None), None)
    assert math.isnan(nan['n'])
    assert models.JSONEncodedList().process_result_value('[1, "a"]',
                                                         None) == [1, 'a']
    assert column.process_result_value(None, None) is None

"""Text compared byte for byte on every backend.

PostgreSQL and SQLite compare strings exactly.  MySQL and MariaDB compare
them with the column's collation: the default one folds case
(``Node1 = node1``), and every PAD SPACE collation -- ``utf8mb4_bin``
included -- ignores trailing spaces (``'rkX' = 'rkX '``).  The name and
shard columns have ``utf8mb4_bin`` there (release 4.0 changes the names'
online, migration f2c8e6a1d4b7, and only where the server can), which
makes their unique indexes exact but still pads; so the queries compare
bytes themselves (doc/source/admin/locks-and-faults.rst):

* ``equals(column, value)`` / ``in_(column, values)``: on MySQL the
  plain comparison (which the column's index answers) AND the same
  comparison on ``CAST(column AS BINARY)`` (a filter on the rows the
  index found: byte-exact, no padding).  Elsewhere the plain comparison.
* ``key(column)``: a GROUP BY / ORDER BY key; on MySQL the column and
  its bytes, so values equal only under the collation stay apart.
"""

import sqlalchemy as sa
from sqlalchemy.ext import compiler
from sqlalchemy.sql import functions

# The dialect names of MySQL and MariaDB.
MYSQL = ('mysql', 'mariadb')


class _OnMySQL(functions.FunctionElement):
    """A condition applied on MySQL/MariaDB only (true elsewhere).

    Untyped: a Boolean would make MySQL's compiler append ``= 1``."""
    inherit_cache = True


class _Bytes(functions.FunctionElement):
    """The column's bytes (MySQL); the column itself elsewhere."""
    type = sa.String()
    inherit_cache = True


class _Key(functions.FunctionElement):
    """The column, then its bytes (MySQL): a byte-exact grouping key."""
    type = sa.String()
    inherit_cache = True


def _only(clauses):
    return clauses.clauses[0]


def _true(element, comp, **kw):
    return comp.process(sa.true(), **kw)


def _column(element, comp, **kw):
    return comp.process(_only(element.clauses), **kw)


def _condition(element, comp, **kw):
    return '(%s)' % comp.process(_only(element.clauses), **kw)


def _cast(element, comp, **kw):
    return 'CAST(%s AS BINARY)' % comp.process(_only(element.clauses), **kw)


def _both(element, comp, **kw):
    column = comp.process(_only(element.clauses), **kw)
    return '%s, CAST(%s AS BINARY)' % (column, column)


# How each element compiles: {element: (elsewhere, on MySQL/MariaDB)}.
_COMPILE = {_OnMySQL: (_true, _condition), _Bytes: (_column, _cast),
            _Key: (_column, _both)}
for _element, (_default, _mysql) in _COMPILE.items():
    compiler.compiles(_element)(_default)
    for _name in MYSQL:
        compiler.compiles(_element, _name)(_mysql)


def equals(column, value):
    """``column = value``, byte-exact on every backend."""
    return sa.and_(column == value, _OnMySQL(_Bytes(column) == value))


def in_(column, values):
    """``column IN values``, byte-exact on every backend."""
    values = list(values)
    return sa.and_(column.in_(values),
                   _OnMySQL(_Bytes(column).in_(values)))


def key(column):
    """``column`` as a byte-exact GROUP BY / ORDER BY key."""
    return _Key(column)

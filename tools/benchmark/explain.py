"""The plans of the SQL the DB layer really emits for the shard queries.

The statements are captured, not rewritten: the ironic_lite.db functions
the objects call (get_shard_list, get_node_list, get_port_list,
get_portgroup_list) run in this process with a ``before_cursor_execute``
listener on their engine, and each captured statement is explained with
its own parameters: ``EXPLAIN (ANALYZE, BUFFERS)`` on PostgreSQL (it runs
the query and reports real times), ``EXPLAIN QUERY PLAN`` on SQLite.
"""

import re

from sqlalchemy import event

from ironic_lite.db import api as db_api
from ironic_lite.db import node as db_node
from ironic_lite.db import port as db_port
from ironic_lite.db import portgroup as db_portgroup

PAGE = dict(limit=1000, sort_key='id', sort_dir='asc')


def queries(shard, marker):
    """(title, callable) of the queries behind the measured endpoints."""
    return [
        ('shard list (shard_counts)', db_node.get_shard_list),
        ('nodes of one shard, LIMIT 1000 by id',
         lambda: db_node.get_node_list({'shard': [shard]}, **PAGE)),
        ('nodes of one shard, next page (marker)',
         lambda: db_node.get_node_list({'shard': [shard]}, marker=marker,
                                       **PAGE)),
        ('unsharded nodes (sharded=false), LIMIT 1000 by id',
         lambda: db_node.get_node_list({'sharded': False}, **PAGE)),
        ('ports of one shard (page ids first, then rows), LIMIT 1000 by id',
         lambda: db_port.get_port_list({'shard': [shard]}, **PAGE)),
        ('port groups of one shard (page ids first), LIMIT 1000 by id',
         lambda: db_portgroup.get_portgroup_list({'shard': [shard]},
                                                 **PAGE)),
    ]


def capture(func):
    """The (statement, parameters) ``func`` sends to the database."""
    engine = db_api.get_engine()
    seen = []

    def listener(conn, cursor, statement, parameters, context, many):
        seen.append((statement, parameters))
    event.listen(engine, 'before_cursor_execute', listener)
    try:
        func()
    finally:
        event.remove(engine, 'before_cursor_execute', listener)
    return seen


def explain(statement, parameters):
    """The plan lines of one statement."""
    engine = db_api.get_engine()
    prefix = ('EXPLAIN (ANALYZE, BUFFERS) '
              if engine.dialect.name == 'postgresql' else
              'EXPLAIN QUERY PLAN ')
    raw = engine.raw_connection()
    try:
        cursor = raw.cursor()
        cursor.execute(prefix + statement, parameters)
        rows = cursor.fetchall()
    finally:
        raw.close()
    if engine.dialect.name == 'postgresql':
        return [r[0] for r in rows]
    return ['%s%s' % ('  ' * _depth(rows, r), r[-1]) for r in rows]


def _depth(rows, row):
    parents = {r[0]: r[1] for r in rows}
    depth, parent = 0, row[1]
    while parent in parents:
        depth, parent = depth + 1, parents[parent]
    return depth


FULL_SCAN = re.compile(r'Seq Scan|^\s*SCAN \w+\s*$')


def plans(shard, marker):
    """[{title, sql, plan, full_scan}] for every query of ``queries``."""
    results = []
    for title, func in queries(shard, marker):
        for statement, parameters in capture(func):
            if not statement.lstrip().upper().startswith('SELECT'):
                continue  # BEGIN and the like
            plan = explain(statement, parameters)
            results.append({
                'title': title, 'sql': ' '.join(statement.split()),
                'parameters': repr(parameters), 'plan': plan,
                'full_scan': any(FULL_SCAN.search(line) for line in plan)})
    return results


def _short(sql):
    """The SQL with a long column list shown as ``<table>.*``."""
    match = re.match(r'SELECT (\w+)\.\w+ AS .*? FROM (.*)$', sql)
    if match and sql.count(' AS ') > 4:
        return 'SELECT %s.<all columns> FROM %s' % match.groups()
    return sql


def _cut(text, width=400):
    """A page's 1,000 ids shown as their first few."""
    return text if len(text) <= width else text[:width] + ' ...'


def print_plans(results):
    for item in results:
        print('\n-- %s%s' % (item['title'], '  [FULL TABLE SCAN]'
                             if item['full_scan'] else ''))
        print(_cut(_short(item['sql'])))
        print('   params: %s' % _cut(item['parameters']))
        for line in item['plan']:
            print('   ' + _cut(line))

"""The JSON patch engine of every PATCH (RFC 6902), with Ironic's checks
and messages.

``check_patch_fields`` refuses a path outside the resource's patchable
fields (400) or a field newer than the request (406); ``apply_patch``
applies the operations one at a time to a copy of the resource's
document, each checked first so that an error names the operation and
paths only, never a value; ``changed_fields`` gives the root fields the
patch changed.  The ``jsonpatch`` library applies each operation once
it is known to apply: its own messages hold values and never reach the
client.
"""

import copy
import re

import jsonpatch
import jsonpointer
import pecan

from ironic_lite.api import microversions as mv
from ironic_lite.common import exception


def patch_roots(patch):
    """The root field names a patch touches (also via move/copy from)."""
    roots = set()
    for op in patch:
        roots.add(op['path'].split('/')[1])
        if 'from' in op and op['op'] == 'move':
            roots.add(str(op['from']).split('/')[1])
    return roots


def root_field(pointer):
    """The field a patch path names (its first segment): from 1.98 with
    RFC 6901's escapes decoded (``~1`` is ``/``, ``~0`` is ``~``), as
    Ironic's check of the patchable fields; below 1.98 as written.  (The
    deeper segments, ``/extra/a~1b``, are decoded at every version, by the
    patch itself.)"""
    root = pointer.split('/')[1]
    if pecan.request.version.minor >= (
            mv.MINOR_98_SUPPORT_SPECIAL_CHAR_IN_ATTRIBUTES):
        root = root.replace('~1', '/').replace('~0', '~')
    return root


def check_patch_fields(patch, allowed, table):
    """400 for a path outside ``allowed``, then 406 for a newer field.

    As in Ironic: the allowed-fields check comes first (its message names
    the whole path and the allowed fields, alphabetically); a field newer
    than the request is only refused when a non-remove operation on exactly
    ``/<field>`` gives it a non-empty value.
    """
    for op in patch:
        for pointer in (op['path'], op.get('from')):
            if pointer is None:
                continue
            if (not isinstance(pointer, str) or not pointer.startswith('/')
                    or root_field(pointer) not in allowed):
                raise exception.InvalidParameterValue(
                    err='Cannot patch %s. Only the following can be '
                        'updated: %s' % (pointer, ', '.join(sorted(allowed))))
    for op in patch:
        root = root_field(op['path'])
        if (table.get(root, 0) > pecan.request.version.minor
                and op['op'] != 'remove' and op['path'] == '/' + root
                and op.get('value')):
            raise exception.NotAcceptable()


_NOT_FOUND = object()
_INDEX_RE = re.compile(r'(0|[1-9][0-9]*)\Z')
_PATCH_ERRORS = (jsonpatch.JsonPatchException,
                 jsonpointer.JsonPointerException, KeyError, IndexError,
                 TypeError, ValueError)


def resolve(doc, pointer):
    """The value at ``pointer`` (a string, or a JsonPointer's parts) in
    ``doc``; None when there is none."""
    try:
        if isinstance(pointer, str):
            pointer = jsonpointer.JsonPointer(pointer)
        else:
            pointer = jsonpointer.JsonPointer.from_parts(pointer)
        return pointer.resolve(doc)
    except _PATCH_ERRORS:
        return None


def _pointer_problem(doc, pointer, adding):
    """Why ``pointer`` does not name a value of ``doc`` (or, ``adding``, a
    place for one), naming paths only, never a value; None when it does.
    """
    try:
        parts = jsonpointer.JsonPointer(pointer).parts
    except jsonpointer.JsonPointerException:
        return '%s is not a valid JSON pointer' % pointer
    texts = pointer.split('/')
    value = doc
    for i, part in enumerate(parts):
        here, last = '/'.join(texts[:i + 2]), i == len(parts) - 1
        if isinstance(value, dict):
            if part not in value:
                return None if last and adding else (
                    'member %s not found' % here)
            value = value[part]
        elif isinstance(value, list):
            if last and adding and part == '-':
                return None
            if not _INDEX_RE.match(part):
                return '%s is not a valid list index' % here
            index = int(part)
            if index > len(value) or index == len(value) and not (
                    last and adding):
                return 'index %s is out of range' % here
            value = value[index] if index < len(value) else None
        else:
            return '%s is neither an object nor a list' % (
                '/'.join(texts[:i + 1]) or 'the document')
    return None


def _op_problem(doc, op):
    """Why ``op`` cannot apply to ``doc`` (paths only), or None."""
    kind, path, source = op['op'], op['path'], op.get('from')
    if kind in ('move', 'copy'):
        if kind == 'move' and path.startswith(source + '/'):
            return 'cannot move %s into its own child %s' % (source, path)
        problem = _pointer_problem(doc, source, adding=False)
        if problem:
            return 'cannot %s %s: %s' % (kind, source, problem)
    problem = _pointer_problem(doc, path, adding=kind in ('add', 'move',
                                                          'copy'))
    if problem and kind == 'remove' and _last_missing(doc, path):
        # jsonpatch's own words, as Ironic passes them on (the name of
        # the member, never a value).
        return "can't remove a non-existent object '%s'" % (
            jsonpointer.JsonPointer(path).parts[-1])
    if problem:
        return 'cannot %s %s: %s' % (kind, path, problem)
    return None


def _last_missing(doc, path):
    """Whether ``path``'s parent is in ``doc`` and its last part is not
    (a member of an object, or an index past the end of a list)."""
    try:
        parts = jsonpointer.JsonPointer(path).parts
    except jsonpointer.JsonPointerException:
        return False
    parent = resolve(doc, parts[:-1]) if parts else None
    last = parts[-1] if parts else None
    if isinstance(parent, dict):
        return last not in parent
    return (isinstance(parent, list) and bool(_INDEX_RE.match(last))
            and int(last) >= len(parent))


def _check_read(op, doc, shown):
    """400 when ``op`` would read more than a GET of the resource shows;
    checked before it applies.  Returns what a read shows of the value a
    ``copy`` or ``move`` takes, when it differs from the value (then only
    a place where a read shows the same may receive it), else
    ``_NOT_FOUND``.

    So a secret may move between masked keys, never to a readable one;
    a ``test`` may not compare against a masked value (not even to fail:
    its failure would tell).
    """
    source = op['path'] if op['op'] == 'test' else op.get('from')
    if source is None:
        return _NOT_FOUND
    seen = shown(doc, source)
    if seen == resolve(doc, source):
        return _NOT_FOUND
    if op['op'] == 'test':
        raise _masked(op, source)
    return seen


def _masked(op, source):
    return exception.InvalidParameterValue(
        err='Cannot %s %s: it holds a value that is not shown (masked).'
            % (op['op'], source))


def _size(value, limit):
    """How many JSON values ``value`` holds (counting stops past
    ``limit``)."""
    count, stack = 0, [value]
    while stack and count <= limit:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def _patch_error(op, reason):
    """The 400 of a failed operation: the operation without its value,
    and a reason that names paths only (never a value of the resource).
    """
    return exception.PatchError(
        patch={k: v for k, v in op.items() if k != 'value'}, reason=reason)


def _apply_one(doc, op, shown):
    """Apply ``op`` to ``doc`` in place (checked first: no error of the
    jsonpatch library, whose messages hold values, reaches the client).
    """
    problem = _op_problem(doc, op)
    if problem:
        raise _patch_error(op, problem)
    seen = _check_read(op, doc, shown) if shown else _NOT_FOUND
    try:
        jsonpatch.JsonPatch([op]).apply(doc, in_place=True)
    except jsonpatch.JsonPatchTestFailed:
        raise _patch_error(op, 'The value at %s is not the tested value'
                           % op['path'])
    except _PATCH_ERRORS:
        raise _patch_error(op, 'cannot %s %s' % (op['op'], op['path']))
    if seen is not _NOT_FOUND and shown(doc, op['path']) != seen:
        raise _masked(op, op['from'])


def _check_root_adds(doc, patch):
    for op in patch:
        if op['op'] == 'add' and op['path'].count('/') == 1:
            if op['path'][1:] not in doc:
                raise exception.InvalidParameterValue(
                    err='Adding a new attribute (%s) to the root of the '
                        'resource is not allowed' % op['path'])


def apply_patch(doc, patch, shown=None):
    """The document after the patch; 400 when the patch cannot apply.

    Operations apply one at a time, in place, to one deep copy of the
    document (the patch's cost is linear in its length), so that the
    error names the operation that failed, as Ironic does.  ``doc`` and
    ``patch`` are left as they are (a retried write applies them again).

    :param shown: a function (document, pointer) -> the value a read of
        the resource shows at that pointer (None when none): every
        pointer an operation reads is checked against it (``_check_read``).
    """
    _check_root_adds(doc, patch)
    work = copy.deepcopy(doc)
    # Copies may not grow the document past what it and the patch hold
    # (doubling a value at each operation would exhaust the memory).
    budget = _size(work, float('inf')) + _size(patch, float('inf'))
    for op in copy.deepcopy(patch):
        if op['op'] == 'copy':
            budget -= _size(resolve(work, op['from']), budget)
            if budget < 0:
                raise _patch_error(op, 'cannot copy %s: the patch copies '
                                   'more than the document and the patch '
                                   'hold together' % op['from'])
        _apply_one(work, op, shown)
    return work


def changed_fields(before, after):
    """{name: new value} of the root fields a patch changed (None when
    removed)."""
    changes = {}
    for name in set(before) | set(after):
        if before.get(name) != after.get(name) or (
                name in before and name not in after):
            changes[name] = after.get(name)
    return changes

"""``/v1/runbooks`` (API 1.92; description, traits and free names 1.112),
as Ironic's.

The API writes runbooks through the object directly, as Ironic does (no
conductor is involved): a runbook is resolved to its steps here, before a
node is asked to clean with them (``runbook_use.resolve``).

Owners, as Ironic: a runbook with no owner is the system's; a project
scoped caller creates runbooks owned by its project (another owner, or a
public one, is a 400); only the system sets ``owner`` and ``public``
(``baremetal:runbook:update:owner`` / ``:public``); a public runbook has
no owner.  A caller who may not read a runbook still reads it when it is
public; a project's list is its runbooks and the public ones.
"""

import functools

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers.v1 import deploy_template
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer
from ironic_lite.api import body_schema
from ironic_lite.api import json_patch
from ironic_lite.api import microversions as mv
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import runbook as schema
from ironic_lite.api.schemas import trait as trait_schema
from ironic_lite.common import exception
from ironic_lite.common import policy
from ironic_lite import objects

SINCE = mv.MINOR_92_RUNBOOKS
TRAITS_SINCE = mv.MINOR_112_RUNBOOK_TRAITS

# The fields of a runbook's body.
FIELD_MIN_VERSION = {
    'uuid': SINCE,
    'name': SINCE,
    'steps': SINCE,
    'disable_ramdisk': SINCE,
    'public': SINCE,
    'owner': SINCE,
    'extra': SINCE,
    'created_at': SINCE,
    'updated_at': SINCE,
    'links': SINCE,
    'description': TRAITS_SINCE,
    'traits': TRAITS_SINCE,
}
DEFAULT_LIST_FIELDS = ('uuid', 'name')
INVALID_SORT_KEYS = ('extra', 'steps', 'traits')
# The paths of a PATCH that have rules of their own.
_PATCH_RULES = (('/owner', 'baremetal:runbook:update:owner'),
                ('/public', 'baremetal:runbook:update:public'))


def render(runbook, fields=None, caches=None):
    body = {
        'uuid': runbook.uuid, 'name': runbook.name,
        'description': runbook.description,
        'steps': deploy_template.masked_steps(runbook.steps),
        'disable_ramdisk': runbook.disable_ramdisk,
        'public': runbook.public, 'owner': runbook.owner,
        'extra': runbook.extra or {},
        'traits': list(runbook.traits),
        'created_at': resource.isotime(runbook.created_at),
        'updated_at': resource.isotime(runbook.updated_at),
        'links': resource.link.self_and_bookmark('runbooks', runbook.uuid),
    }
    utils.hide_fields(body, FIELD_MIN_VERSION,
                      None if caches is None
                      else resource.request_minor(caches))
    return utils.select_fields(body, fields) if fields else body


def target(runbook):
    """The policy target of a runbook."""
    return {'runbook.owner': runbook.owner if runbook is not None else None}


def lookup(ident):
    """The runbook ``ident`` (a UUID or a name), Ironic's
    ``get_rpc_runbook``."""
    ctx = pecan.request.context
    if uuidutils.is_uuid_like(ident):
        return objects.Runbook.get_by_uuid(ctx, ident)
    if utils.is_valid_logical_name(ident):
        return objects.Runbook.get_by_name(ctx, ident)
    raise exception.InvalidUuidOrName(name=ident)


def fetch_authorized(rule, ident):
    """The runbook, after ``rule`` on its owner (Ironic's
    ``check_runbook_policy_and_retrieve``: looked up first, so an unknown
    one is a 404 and a known one the caller may not touch a 403)."""
    runbook = lookup(ident)
    policy.authorize(rule, target(runbook), pecan.request.context)
    return runbook


def normalized_steps(steps):
    """The steps as stored: Ironic's keys only, orders as integers, no
    arguments as {}.

    :raises: InvalidDeployTemplate for two steps of the same interface and
        step (Ironic's check and message, shared with deploy templates).
    """
    deploy_template.check_duplicate_steps(steps)
    return [{'interface': step['interface'], 'step': step['step'],
             'args': step.get('args') or {}, 'order': int(step['order'])}
            for step in steps]


def _patch_values(patch, path):
    """The values a patch adds or replaces at ``path`` (Ironic's
    ``get_patch_values``)."""
    return [op.get('value') for op in patch
            if op['path'] == path and op['op'] != 'remove']


def _check_create_owner(ctx, values):
    """A project-scoped caller creates its project's private runbooks
    (Ironic's checks and words); the system any."""
    if not policy.enabled() or getattr(ctx, 'system_scope', None) == 'all':
        return values
    project = ctx.project_id or None
    owner = values.get('owner')
    if owner and owner != project:
        raise exception.Invalid(
            'Cannot create a runbook as a project scoped admin with an '
            'owner other than your own project.')
    if project and values.get('public'):
        raise exception.Invalid(
            'Cannot create a public runbook as a project scoped admin.')
    return dict(values, owner=project)


# Written to the database by the API (no conductor involved).
RES = resource.Resource(
    'runbook', 'runbooks', objects.Runbook, render, FIELD_MIN_VERSION,
    writer=writer.Writer(), default_fields=DEFAULT_LIST_FIELDS,
    invalid_sort_keys=INVALID_SORT_KEYS, link_fields=(),
    body_schema=schema.BODY_112, patch_allowed=schema.PATCH_ALLOWED,
    schema_noun='patch')


class RunbooksController(resource.ResourceController):
    RES = RES

    def policy_target(self, obj):
        return target(obj)

    def project_filter(self, ctx):
        return policy.list_project_filter('runbook', ctx)

    def get_object(self, ident):
        return lookup(ident)

    def list_filters(self, params):
        return {}

    def _authorized(self, action, ident):
        return fetch_authorized('baremetal:runbook:%s' % action, ident)

    def get_one(self, ident, fields=None):
        try:
            runbook = self._authorized('get', ident)
        except exception.NotAuthorized:
            # Ironic's check_and_retrieve_public_runbook.
            runbook = lookup(ident)
            if not runbook.public:
                raise
        return self.render(runbook, utils.get_fields(
            fields, self.RES.field_table, self.RES.link_fields))

    def post(self, body):
        ctx = pecan.request.context
        policy.authorize('baremetal:runbook:create', {}, ctx)
        values = _check_create_owner(ctx, dict(body))
        return super().post(values)

    def new_object(self, ctx, values):
        values = dict(values, steps=normalized_steps(values['steps']),
                      traits=[])
        values['disable_ramdisk'] = bool(values.get('disable_ramdisk'))
        values['public'] = bool(values.get('public'))
        for name in ('owner', 'description', 'extra'):
            values.setdefault(name, None)
        if not values.get('uuid'):
            values['uuid'] = uuidutils.generate_uuid()
        return objects.Runbook(ctx, **values)

    # -- PATCH ------------------------------------------------------------

    def _allowed(self):
        allowed = self.RES.patch_allowed
        if not utils.allows(TRAITS_SINCE):
            allowed = allowed - {'description'}
        return allowed

    def check_patch_ops(self, patch, **query):
        # Ironic checks the paths before it looks the runbook up.
        json_patch.check_patch_fields(patch, self._allowed(),
                                      self.RES.field_table)

    def check_patch(self, patch, ident):
        pass

    def object_to_patch(self, ident, patch):
        """The runbook, after each rule its paths need (Ironic's
        ``_authorize_patch_and_get_runbook``)."""
        rules, generic = [], False
        for op in patch:
            rule = next((r for path, r in _PATCH_RULES
                         if op['path'].startswith(path)), None)
            if rule is None:
                generic = True
            else:
                rules.append(rule)
        if generic or not rules:
            rules.append('baremetal:runbook:update')
        runbook = fetch_authorized(rules[0], ident)
        for rule in rules[1:]:
            policy.authorize(rule, target(runbook), pecan.request.context)
        self._check_owner_and_public(runbook, patch)
        return runbook

    @staticmethod
    def _check_owner_and_public(runbook, patch):
        """A public runbook has no owner: Ironic's checks and words."""
        owner = _patch_values(patch, '/owner')
        public = _patch_values(patch, '/public')
        if owner:
            public_value = public[0] if public else False
            if (runbook.public and not public) or public_value:
                raise exception.PatchError(
                    patch=patch,
                    reason='There cannot be an owner for a public runbook')

    def editable_document(self, obj):
        return {'name': obj.name, 'description': obj.description,
                'extra': obj.extra or {}, 'owner': obj.owner,
                'public': obj.public, 'disable_ramdisk': obj.disable_ramdisk,
                'steps': [dict(step) for step in obj.steps]}

    def shown_at(self, obj):
        return deploy_template.shown_at

    def patched_document(self, doc):
        # As Ironic: keys a step does not have are dropped, not refused;
        # setting ``public`` clears the owner (unless the patch sets one).
        if isinstance(doc.get('steps'), list):
            doc['steps'] = [
                {k: v for k, v in step.items() if k in schema.STEP_KEYS}
                if isinstance(step, dict) else step
                for step in doc['steps']]
        return doc

    def _patched(self, ctx, ident, patch):
        obj, expected = super()._patched(ctx, ident, patch)
        if _patch_values(patch, '/public') and not _patch_values(
                patch, '/owner'):
            obj.owner = None
        return obj, expected

    def apply_changes(self, ctx, obj, changes):
        changes = dict(changes)
        if 'steps' in changes:
            steps = normalized_steps(changes.pop('steps'))
            if steps != self.editable_document(obj)['steps']:
                changes['steps'] = steps
        for name in ('public', 'disable_ramdisk'):
            if name in changes:
                changes[name] = bool(changes[name])
        super().apply_changes(ctx, obj, changes)


class RunbookTraitsController(object):
    """``/v1/runbooks/<ident>/traits`` (1.112): the runbook's traits, the
    nodes it may run on (one of theirs must be one of these).  Written by
    the API directly, under ``baremetal:runbook:update``."""

    def __init__(self, runbook_ident):
        self.runbook_ident = runbook_ident

    def _runbook(self, rule='baremetal:runbook:update'):
        return fetch_authorized(rule, self.runbook_ident)

    def get_all(self):
        return {'traits': list(self._runbook('baremetal:runbook:get')
                               .traits)}

    def put_all(self, body):
        runbook = self._runbook()
        if 'traits' not in body:
            raise exception.Invalid(_ONE_OR_ALL)
        runbook.set_traits(body['traits'])
        pecan.response.status = 204
        return ''

    def put_one(self, trait):
        body_schema.check_schema(trait_schema.TRAIT, trait, 'trait')
        runbook = self._runbook()
        body = utils.json_body()
        if isinstance(body, dict) and 'traits' in body:
            raise exception.Invalid(_ONE_OR_ALL)
        if pecan.request.body and body:
            raise exception.Invalid(
                'No body should be provided when adding a trait')
        runbook.add_trait(trait)
        pecan.response.status = 204
        pecan.response.headers['Location'] = resource.link.build_url(
            'runbooks', '%s/traits/%s' % (self.runbook_ident, trait))
        return ''

    def delete_all(self):
        self._runbook().set_traits([])
        pecan.response.status = 204
        return ''

    def delete_one(self, trait):
        # Removing a trait the runbook does not have changes nothing.
        self._runbook().remove_trait(trait)
        pecan.response.status = 204
        return ''


_ONE_OR_ALL = ('A single runbook trait may be added via PUT '
               '/v1/runbooks/<runbook identifier>/traits/<trait> with no '
               'body, or all runbook traits may be replaced via PUT '
               '/v1/runbooks/<runbook identifier>/traits with the list of '
               'traits specified in the request body.')

ROUTE = functools.partial(routes.Route, owner=RunbooksController)
R = ROUTE
H = RunbooksController
T = '/v1/runbooks/{runbook_ident}'
_TOO_OLD = 'The API version does not allow runbooks'
READ_GATE = routes.Gate(404, _TOO_OLD, other_methods=405)
WRITE_GATE = routes.Gate(405, _TOO_OLD, other_methods=405)
TRAITS_GATE = routes.Gate(404, 'The API version does not allow runbook '
                               'traits', other_methods=404)
IDENT_ARG = {'runbook_ident': utils.uuid_or_name_arg('runbook_ident')}
# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 155
# The links of GET /v1 to it.
V1_RESOURCES = ('runbooks',)


TR = functools.partial(routes.Route, owner=RunbookTraitsController,
                       since=TRAITS_SINCE, older=TRAITS_GATE,
                       path_args=IDENT_ARG)


ROUTES = [
    R('GET', '/v1/runbooks', H.get_all, query=schema.LIST_QUERY,
      since=SINCE, older=READ_GATE, doc='list runbooks'),
    R('POST', '/v1/runbooks', H.post,
      body={SINCE: schema.BODY, TRAITS_SINCE: schema.BODY_112},
      what='runbook', since=SINCE, older=WRITE_GATE,
      doc='create a runbook'),
    R('GET', T, H.get_one, query=(schemas.fields_param(since=SINCE),),
      since=SINCE, older=READ_GATE, path_args=IDENT_ARG,
      doc='show a runbook (UUID or name)'),
    R('PATCH', T, H.patch, body={SINCE: schemas.PATCH}, what='patch',
      read_only=schema.READ_ONLY, since=SINCE, older=WRITE_GATE,
      path_args=IDENT_ARG, doc='update a runbook (JSON patch)'),
    R('DELETE', T, H.delete, since=SINCE, older=WRITE_GATE,
      path_args=IDENT_ARG, doc='delete a runbook'),
    TR('GET', T + '/traits', RunbookTraitsController.get_all,
       doc="a runbook's traits (1.112)"),
    TR('PUT', T + '/traits', RunbookTraitsController.put_all,
       body={TRAITS_SINCE: schema.TRAITS}, what='body',
       doc="replace a runbook's traits (1.112)"),
    TR('DELETE', T + '/traits', RunbookTraitsController.delete_all,
       doc="remove all of a runbook's traits (1.112)"),
    TR('PUT', T + '/traits/{trait}', RunbookTraitsController.put_one,
       doc='add one trait to a runbook (1.112, no body)'),
    TR('DELETE', T + '/traits/{trait}', RunbookTraitsController.delete_one,
       doc='remove one trait of a runbook (1.112)'),
]

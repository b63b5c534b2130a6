"""``/v1/deploy_templates`` (API 1.55), as Ironic's.

The API writes templates through the object directly, as Ironic does (no
conductor is involved), but only once the conductors know templates:
while pinned to a release whose RPC API is older than 1.7 (3.0), a
conductor of that release would deploy a node without its templates'
steps, so every write answers 409 (``PinnedRelease``, nothing written).
Reads are served whatever the pin (the tables exist: migrations run
first).
"""

import collections
import functools

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer
from ironic_lite.api import json_patch
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import deploy_template as schema
from ironic_lite.common import exception
from ironic_lite.common import masking
from ironic_lite.common import policy
from ironic_lite import objects

# The RPC version whose conductors deploy with templates (API 1.55).
RPC_VERSION = '1.7'
MASK = '******'

# The fields of a deploy template's body (all from 1.55).
FIELD_MIN_VERSION = {
    'uuid': 55,
    'name': 55,
    'steps': 55,
    'extra': 55,
    'created_at': 55,
    'updated_at': 55,
    'links': 55,
}
DEFAULT_LIST_FIELDS = ('uuid', 'name')
INVALID_SORT_KEYS = ('extra', 'steps')


def masked_steps(steps):
    """The steps as a read shows them: secrets in arguments masked."""
    return [dict(step, args=masking.mask_dict_password(step['args'] or {},
                                                       MASK))
            for step in steps or ()]


def render(template, fields=None, caches=None):
    body = {
        'uuid': template.uuid, 'name': template.name,
        'steps': masked_steps(template.steps),
        'extra': template.extra or {},
        'created_at': resource.isotime(template.created_at),
        'updated_at': resource.isotime(template.updated_at),
        'links': link.self_and_bookmark('deploy_templates', template.uuid),
    }
    return utils.select_fields(body, fields) if fields else body


def shown_at(doc, pointer):
    """What a read shows at ``pointer`` of an editable document."""
    return json_patch.resolve(
        dict(doc, steps=masked_steps(doc.get('steps'))), pointer)


def check_duplicate_steps(steps):
    """InvalidDeployTemplate for two steps of the same interface and step
    (Ironic's ``duplicate_steps``, whose message runbooks share)."""
    counter = collections.Counter((s['interface'], s['step'])
                                  for s in steps)
    duplicates = sorted(k for k, n in counter.items() if n > 1)
    if duplicates:
        raise exception.InvalidDeployTemplate(
            err='Duplicate deploy steps. A template cannot have multiple '
                'deploy steps with the same interface and step. '
                'Duplicates: %s' % '; '.join(
                    'interface: %s, step: %s' % d for d in duplicates))


def normalized_steps(steps):
    """The steps as stored: Ironic's keys only, priorities as integers.

    :raises: InvalidDeployTemplate for two steps of the same interface and
        step (Ironic's message); InvalidParameterValue for a priority
        beyond an SQL INTEGER.
    """
    check_duplicate_steps(steps)
    result = []
    for step in steps:
        priority = int(step['priority'])
        if priority > schema.MAX_PRIORITY:
            raise exception.InvalidParameterValue(
                err='Invalid priority %s of deploy step %s.%s: at most %d'
                    % (step['priority'], step['interface'], step['step'],
                       schema.MAX_PRIORITY))
        result.append({'interface': step['interface'], 'step': step['step'],
                       'args': step['args'], 'priority': priority})
    return result


# Written to the database by the API, refused while pinned below RPC 1.7.
RES = resource.Resource(
    'deploy_template', 'deploy_templates', objects.DeployTemplate, render,
    FIELD_MIN_VERSION,
    writer=writer.Writer(version=RPC_VERSION, older=writer.REFUSE,
                         what='Changing deploy templates'),
    default_fields=DEFAULT_LIST_FIELDS,
    invalid_sort_keys=INVALID_SORT_KEYS, link_fields=(),
    body_schema=schema.BODY, patch_allowed=schema.PATCH_ALLOWED,
    schema_noun='patch')


class DeployTemplatesController(resource.ResourceController):
    RES = RES

    def policy_target(self, obj):
        return {'project_id': pecan.request.context.project_id}

    def project_filter(self, ctx):
        policy.authorize('baremetal:deploy_template:get', {}, ctx)
        return None

    def get_object(self, ident):
        # A UUID or a name: each route checks its path segment (below
        # 1.91 a final ".json" is dropped first, as Ironic does).
        ctx = pecan.request.context
        return utils.get_without_json_suffix(
            lambda name: objects.DeployTemplate.get(ctx, name), ident,
            exception.DeployTemplateNotFound)

    def list_filters(self, params):
        return {}

    def _authorized(self, action, ident):
        # Ironic checks the rule before it looks the template up.
        policy.authorize('baremetal:deploy_template:%s' % action,
                         self.policy_target(None), pecan.request.context)
        return self.get_object(ident)

    def new_object(self, ctx, values):
        values = dict(values, steps=normalized_steps(values['steps']))
        if not values.get('uuid'):
            values['uuid'] = uuidutils.generate_uuid()
        return objects.DeployTemplate(ctx, **values)

    def editable_document(self, obj):
        return {'name': obj.name, 'extra': obj.extra or {},
                'steps': [dict(step) for step in obj.steps]}

    def check_patch(self, patch, ident):
        # A patch that changes nothing is refused too: the answer to a
        # write does not depend on what it holds.
        self.RES.writer.check(pecan.request.rpcapi, 'update')
        super().check_patch(patch, ident)

    def shown_at(self, obj):
        return shown_at

    def patched_document(self, doc):
        # As Ironic: keys a step does not have are dropped, not refused.
        if isinstance(doc.get('steps'), list):
            doc['steps'] = [
                {k: v for k, v in step.items() if k in schema.STEP_KEYS}
                if isinstance(step, dict) else step
                for step in doc['steps']]
        return doc

    def apply_changes(self, ctx, obj, changes):
        # The steps as stored: a change only if they differ once
        # normalized (a priority "10" for 10 changes nothing).
        changes = dict(changes)
        if 'steps' in changes:
            steps = normalized_steps(changes.pop('steps'))
            if steps != self.editable_document(obj)['steps']:
                changes['steps'] = steps
        super().apply_changes(ctx, obj, changes)


ROUTE = functools.partial(routes.Route, owner=DeployTemplatesController)
R = ROUTE
H = DeployTemplatesController
T = '/v1/deploy_templates/{template_ident}'
SINCE = mv.MINOR_55_DEPLOY_TEMPLATES
_TOO_OLD = 'The API version does not allow deploy templates'
READ_GATE = routes.Gate(404, _TOO_OLD, other_methods=405)
WRITE_GATE = routes.Gate(405, _TOO_OLD, other_methods=405)
IDENT_ARG = {'template_ident': utils.uuid_or_name_arg('template_ident')}

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 150
# The links of GET /v1 to it.
V1_RESOURCES = ('deploy_templates',)

ROUTES = [
    R('GET', '/v1/deploy_templates', H.get_all, query=schema.LIST_QUERY,
      since=SINCE, older=READ_GATE, unknown=q.UNKNOWN_SCHEMA,
      doc='list deploy templates'),
    R('POST', '/v1/deploy_templates', H.post, body={SINCE: schema.BODY},
      what='template', since=SINCE, older=WRITE_GATE,
      doc='create a deploy template'),
    R('GET', T, H.get_one, query=(schemas.fields_param(since=SINCE),),
      since=SINCE, older=READ_GATE, unknown=q.UNKNOWN_SCHEMA,
      path_args=IDENT_ARG, doc='show a deploy template (UUID or name)'),
    R('PATCH', T, H.patch, body={SINCE: schemas.PATCH}, what='patch',
      read_only=schema.READ_ONLY, since=SINCE, older=WRITE_GATE,
      path_args=IDENT_ARG, doc='update a deploy template (JSON patch)'),
    R('DELETE', T, H.delete, since=SINCE, older=WRITE_GATE,
      path_args=IDENT_ARG, doc='delete a deploy template'),
]

"""``/v1/inspection_rules`` (API 1.96), as Ironic's.

The API writes rules through the object directly, as Ironic does (no
conductor is involved); the conductors read them at each inspection
(``conductor/inspection_rules.py``).  A ``sensitive`` rule shows its
conditions and actions as ``null``, and stays sensitive.
"""

import functools

from oslo_utils import uuidutils
import pecan

from ironic_lite.api.controllers import link
from ironic_lite.api.controllers.v1 import resource
from ironic_lite.api.controllers.v1 import utils
from ironic_lite.api.controllers.v1 import writer
from ironic_lite.api import microversions as mv
from ironic_lite.api import query as q
from ironic_lite.api import routes
from ironic_lite.api import schemas
from ironic_lite.api.schemas import inspection_rule as schema
from ironic_lite.common import exception
from ironic_lite.common import inspection_rule_operators as operators
from ironic_lite.common import policy
from ironic_lite import objects

SINCE = mv.MINOR_96_INSPECTION_RULES
FIELD_MIN_VERSION = {name: SINCE for name in (
    'uuid', 'description', 'priority', 'sensitive', 'phase', 'conditions',
    'actions', 'created_at', 'updated_at', 'links')}
DEFAULT_LIST_FIELDS = ('uuid', 'priority', 'phase', 'description')
INVALID_SORT_KEYS = ('actions', 'conditions')


def _operations(items, conditions=False):
    """Ironic's convert_actions/convert_conditions: op and args, the loop
    when there is one (and, for a condition, its ``multiple``)."""
    result = []
    for item in items or ():
        shown = {'op': item['op'], 'args': item['args']}
        if item.get('loop'):
            shown['loop'] = item['loop']
            if conditions:
                shown['multiple'] = item.get('multiple', 'any')
        result.append(shown)
    return result


def render(rule, fields=None, caches=None):
    sensitive = bool(rule.sensitive)
    body = {
        'uuid': rule.uuid, 'description': rule.description,
        'priority': rule.priority, 'sensitive': sensitive,
        'phase': rule.phase,
        'conditions': (None if sensitive
                       else _operations(rule.conditions, conditions=True)),
        'actions': None if sensitive else _operations(rule.actions),
        'created_at': resource.isotime(rule.created_at),
        'updated_at': resource.isotime(rule.updated_at),
        'links': link.self_and_bookmark('inspection_rules', rule.uuid),
    }
    return utils.select_fields(body, fields) if fields else body


RES = resource.Resource(
    'inspection_rule', 'inspection_rules', objects.InspectionRule, render,
    FIELD_MIN_VERSION, writer=writer.Writer(),
    default_fields=DEFAULT_LIST_FIELDS,
    invalid_sort_keys=INVALID_SORT_KEYS, body_schema=schema.BODY,
    patch_allowed=schema.PATCH_ALLOWED, schema_noun='patch')


class InspectionRulesController(resource.ResourceController):
    RES = RES

    def policy_target(self, obj):
        return {'project_id': pecan.request.context.project_id}

    def project_filter(self, ctx):
        policy.authorize('baremetal:inspection_rule:get', {}, ctx)
        return None

    def get_object(self, ident):
        return objects.InspectionRule.get_by_uuid(pecan.request.context,
                                                  ident)

    def list_filters(self, params):
        phase = params.get('phase')
        return {} if phase is None else {'phase': phase}

    def _authorized(self, action, ident):
        # Ironic checks the rule before it looks the rule up.
        policy.authorize('baremetal:inspection_rule:%s' % action,
                         self.policy_target(None), pecan.request.context)
        return self.get_object(ident)

    def new_object(self, ctx, values):
        # Ironic: the policy, then the operations' arguments.
        policy.authorize('baremetal:inspection_rule:create',
                         self.policy_target(None), ctx)
        operators.validate_rule(values)
        values = dict(values)
        if not values.get('uuid'):
            values['uuid'] = uuidutils.generate_uuid()
        for name in ('sensitive', 'phase', 'priority'):
            if values.get(name) is None:
                values.pop(name, None)
        return objects.InspectionRule(ctx, **values)

    def editable_document(self, obj):
        return {'description': obj.description, 'priority': obj.priority,
                'sensitive': bool(obj.sensitive), 'phase': obj.phase,
                'conditions': list(obj.conditions or []),
                'actions': list(obj.actions or [])}

    def check_changes(self, obj, changes, new_doc):
        if obj.sensitive and 'sensitive' in changes and (
                not new_doc.get('sensitive')):
            raise exception.PatchError(
                patch='/sensitive',
                reason='Inspection rules cannot have the sensitive flag '
                       'unset.')
        super().check_changes(obj, changes, new_doc)
        operators.validate_rule(
            {k: v for k, v in new_doc.items() if v is not None})


ROUTE = functools.partial(routes.Route, owner=InspectionRulesController)
R = ROUTE
H = InspectionRulesController
T = '/v1/inspection_rules/{rule_uuid}'
_TOO_OLD = 'The API version does not allow inspection rules'
READ_GATE = routes.Gate(404, _TOO_OLD, other_methods=405)
WRITE_GATE = routes.Gate(405, _TOO_OLD, other_methods=405)


def _schema_uuid(value):
    """Ironic's parameter schema of GET and DELETE (format uuid)."""
    if not uuidutils.is_uuid_like(value):
        raise exception.InvalidParameterValue(
            err="Schema error: '%s' is not a 'uuid'" % value)


IDENT_ARG = {'rule_uuid': _schema_uuid}
# PATCH: Ironic's args.uuid runs first.
PATCH_IDENT_ARG = {'rule_uuid': utils.uuid_arg('inspection_rule_uuid')}

# Its place in the route table and the API reference (route_table.py).
API_REFERENCE_ORDER = 153
# The links of GET /v1 to it.
V1_RESOURCES = ('inspection_rules',)

ROUTES = [
    R('GET', '/v1/inspection_rules', H.get_all, query=schema.LIST_QUERY,
      since=SINCE, older=READ_GATE, unknown=q.UNKNOWN_SCHEMA,
      doc='list inspection rules'),
    # Ironic's newer validation: "Schema error: ..." (no noun).
    R('POST', '/v1/inspection_rules', H.post, body={SINCE: schema.BODY},
      since=SINCE, older=WRITE_GATE,
      doc='create an inspection rule'),
    R('GET', T, H.get_one, query=(schemas.fields_param(since=SINCE),),
      since=SINCE, older=READ_GATE, unknown=q.UNKNOWN_SCHEMA,
      path_args=IDENT_ARG, doc='show an inspection rule'),
    R('PATCH', T, H.patch, body={SINCE: schema.PATCH},
      read_only=schema.READ_ONLY, since=SINCE, older=WRITE_GATE,
      path_args=PATCH_IDENT_ARG,
      doc='update an inspection rule (JSON patch)'),
    R('DELETE', T, H.delete, since=SINCE, older=WRITE_GATE,
      path_args=IDENT_ARG, doc='delete an inspection rule'),
]

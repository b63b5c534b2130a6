"""The personas of the access rules: Ironic 39's check strings
(ironic/common/policy.py), composed as Ironic composes them, for the rules
of ``ironic_lite.common.policy``."""

SYSTEM_ADMIN = 'role:admin and system_scope:all'
# ``rule:service_role``: the service role in the service project, when
# [DEFAULT]rbac_service_role_elevated_access is on (the context adds
# ``config.service_project_name`` to the target only then).
SYSTEM_MEMBER = '(role:member and system_scope:all) or rule:service_role'
SYSTEM_READER = ('(role:reader and system_scope:all) or '
                 '(role:service and system_scope:all) or rule:service_role')
SYSTEM_SERVICE = 'role:service and system_scope:all'
PROJECT_MEMBER = ('role:member and (project_id:%(node.owner)s or '
                  'project_id:%(node.lessee)s)')
PROJECT_READER = ('role:reader and (project_id:%(node.owner)s or '
                  'project_id:%(node.lessee)s)')
PROJECT_SERVICE = 'role:service and project_id:%(node.owner)s'
OWNER_ADMIN = 'role:admin and project_id:%(node.owner)s'
OWNER_MANAGER = 'role:manager and project_id:%(node.owner)s'
OWNER_MEMBER = 'role:member and project_id:%(node.owner)s'
LESSEE_ADMIN = 'role:admin and project_id:%(node.lessee)s'
LESSEE_MANAGER = 'role:manager and project_id:%(node.lessee)s'


def _any(*checks):
    return ' or '.join('(%s)' % c for c in checks)


SYSTEM_ADMIN_OR_SERVICE = _any(SYSTEM_ADMIN, SYSTEM_SERVICE)
SYSTEM_OR_PROJECT_MEMBER = _any(SYSTEM_MEMBER, PROJECT_MEMBER, SYSTEM_SERVICE)
SYSTEM_OR_PROJECT_READER = _any(SYSTEM_READER, PROJECT_READER,
                                PROJECT_SERVICE)
# Ironic's: the owner's readers, not the lessee's.
SYSTEM_OR_OWNER_READER = _any(SYSTEM_READER, SYSTEM_SERVICE,
                              'role:reader and project_id:%(node.owner)s',
                              PROJECT_SERVICE)
SYSTEM_OR_OWNER_MEMBER_AND_LESSEE_ADMIN = _any(
    SYSTEM_MEMBER, SYSTEM_SERVICE, OWNER_MEMBER, LESSEE_ADMIN,
    LESSEE_MANAGER, PROJECT_SERVICE)
SYSTEM_ADMIN_OR_OWNER_ADMIN = _any(SYSTEM_ADMIN, SYSTEM_SERVICE, OWNER_ADMIN,
                                   OWNER_MANAGER, PROJECT_SERVICE)
SYSTEM_MEMBER_OR_OWNER_ADMIN = _any(SYSTEM_MEMBER, SYSTEM_SERVICE,
                                    OWNER_ADMIN, OWNER_MANAGER,
                                    PROJECT_SERVICE)
SYSTEM_MEMBER_OR_OWNER_MEMBER = _any(SYSTEM_MEMBER, SYSTEM_SERVICE,
                                     OWNER_MEMBER, PROJECT_SERVICE)
API_READER = '(role:reader) or (role:service)'
# Allocations: the system, or a member (reader) of the owning project.
ALLOCATION_MEMBER = _any(SYSTEM_MEMBER,
                         'role:member and project_id:%(allocation.owner)s')
ALLOCATION_READER = _any(SYSTEM_READER,
                         'role:reader and project_id:%(allocation.owner)s')
ALLOCATION_CREATOR = _any(SYSTEM_MEMBER, 'role:member')
# Runbooks (1.92): the system, or a manager (reader) of the owning project;
# the service role anywhere.
RUNBOOK_ADMIN = ('(' + SYSTEM_MEMBER + ') or (role:manager and '
                 'project_id:%(runbook.owner)s) or role:service')
RUNBOOK_READER = ('(' + SYSTEM_READER + ') or (role:reader and '
                  'project_id:%(runbook.owner)s) or role:service')
RUNBOOK_CREATOR = '(' + SYSTEM_MEMBER + ') or role:manager or role:service'
# Volume records.
SYSTEM_MEMBER_OR_OWNER_LESSEE_ADMIN = _any(
    SYSTEM_MEMBER, SYSTEM_SERVICE, OWNER_ADMIN, OWNER_MANAGER, LESSEE_ADMIN,
    LESSEE_MANAGER, PROJECT_SERVICE)
TARGET_PROPERTIES_READER = _any(SYSTEM_READER, 'role:admin')

SYSTEM = ('system',)
SYSTEM_AND_PROJECT = ('system', 'project')

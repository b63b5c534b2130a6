"""Exceptions with an HTTP status code and a message a person can act on.

The API turns any ``IronicException`` into Ironic's error body with the
exception's ``code``; anything else becomes a 500 with a generic message.
"""

from http import client as http_client

from oslo_log import log as logging

LOG = logging.getLogger(__name__)


class IronicException(Exception):
    """Base exception: subclasses set ``_msg_fmt`` and maybe ``code``."""

    _msg_fmt = 'An unknown exception occurred.'
    code = http_client.INTERNAL_SERVER_ERROR

    def __init__(self, message=None, **kwargs):
        self.kwargs = kwargs
        if 'code' in kwargs:
            self.code = kwargs['code']
        if not message:
            try:
                message = self._msg_fmt % kwargs
            except (KeyError, TypeError):
                LOG.exception('Exception in string format operation, '
                              'kwargs: %s', kwargs)
                message = self._msg_fmt
        super().__init__(message)

    def __str__(self):
        return self.args[0] if self.args else self._msg_fmt


class Invalid(IronicException):
    _msg_fmt = 'Unacceptable parameters.'
    code = http_client.BAD_REQUEST


class InvalidParameterValue(Invalid):
    _msg_fmt = '%(err)s'


class MissingArgument(Invalid):
    _msg_fmt = '%(err)s'


class MissingParameterValue(InvalidParameterValue):
    _msg_fmt = '%(err)s'


class UnsupportedMediaType(IronicException):
    _msg_fmt = ('The request media type %(media_type)s is not supported by '
                'this server.')
    code = 415


class InvalidUUID(Invalid):
    _msg_fmt = 'Expected a UUID but received %(uuid)s.'


class InvalidUuidOrName(Invalid):
    _msg_fmt = 'Expected a logical name or UUID but received %(name)s.'


class InvalidMAC(Invalid):
    _msg_fmt = 'Expected a MAC address but received %(mac)s.'


class InvalidStateRequested(Invalid):
    _msg_fmt = ('The requested action "%(action)s" can not be performed '
                'on node "%(node)s" while it is in state "%(state)s".')


class PatchError(Invalid):
    _msg_fmt = "Couldn't apply patch '%(patch)s'. Reason: %(reason)s"


class DriverNotFound(IronicException):
    _msg_fmt = ('Could not find the following driver(s) or hardware '
                'type(s): %(driver_name)s.')
    code = http_client.BAD_REQUEST


class NoValidHost(IronicException):
    _msg_fmt = 'No valid host was found. Reason: %(reason)s'
    code = http_client.BAD_REQUEST


class NotAcceptable(IronicException):
    _msg_fmt = 'Request not acceptable.'
    code = http_client.NOT_ACCEPTABLE


class VersionNotSupported(NotAcceptable):
    """A well-formed microversion outside the supported range: how
    clients negotiate (they ask for the newest they know, then for the
    maximum the 406 names)."""


class NotAuthorized(IronicException):
    _msg_fmt = 'Not authorized.'
    code = http_client.FORBIDDEN


class HTTPForbidden(NotAuthorized):
    _msg_fmt = 'Access was denied to the following resource: %(resource)s'


class NotFound(IronicException):
    _msg_fmt = 'Resource could not be found.'
    code = http_client.NOT_FOUND


class NodeNotFound(NotFound):
    _msg_fmt = 'Node %(node)s could not be found.'


class PortNotFound(NotFound):
    _msg_fmt = 'Port %(port)s could not be found.'


class PortgroupNotFound(NotFound):
    _msg_fmt = 'Portgroup %(portgroup)s could not be found.'


class ChassisNotFound(NotFound):
    _msg_fmt = 'Chassis %(chassis)s could not be found.'


class NodeTraitNotFound(NotFound):
    _msg_fmt = "Node %(node_id)s doesn't have a trait '%(trait)s'"


class BIOSSettingNotFound(NotFound):
    _msg_fmt = "Node %(node)s doesn't have a BIOS setting '%(name)s'"


class NodeHistoryNotFound(NotFound):
    _msg_fmt = 'Node history record %(history)s could not be found.'


class ConductorNotFound(NotFound):
    _msg_fmt = 'Conductor %(conductor)s could not be found.'


class Conflict(IronicException):
    _msg_fmt = 'Conflict.'
    code = http_client.CONFLICT


class DuplicateName(Conflict):
    _msg_fmt = 'A node with name %(name)s already exists.'


class NodeAlreadyExists(Conflict):
    _msg_fmt = 'A node with UUID %(uuid)s already exists.'


class InstanceAssociated(Conflict):
    _msg_fmt = ('Instance %(instance_uuid)s is already associated with a '
                'node, it cannot be associated with this other node '
                '%(node)s')


class ChassisAlreadyExists(Conflict):
    _msg_fmt = 'A chassis with UUID %(uuid)s already exists.'


class PortAlreadyExists(Conflict):
    _msg_fmt = 'A port with UUID %(uuid)s already exists.'


class MACAlreadyExists(Conflict):
    _msg_fmt = 'A port with MAC address %(mac)s already exists.'


class PortgroupAlreadyExists(Conflict):
    _msg_fmt = 'A portgroup with UUID %(uuid)s already exists.'


class PortDuplicateName(Conflict):
    _msg_fmt = 'A port with name %(name)s already exists.'


class PortgroupDuplicateName(Conflict):
    _msg_fmt = 'A portgroup with name %(name)s already exists.'


class PortgroupMACAlreadyExists(Conflict):
    _msg_fmt = 'A portgroup with MAC address %(mac)s already exists.'


class PortgroupNotEmpty(Invalid):
    _msg_fmt = ('Cannot complete the requested action because portgroup '
                '%(portgroup)s contains ports.')


class ChassisNotEmpty(Invalid):
    _msg_fmt = ('Cannot complete the requested action because chassis '
                '%(chassis)s contains nodes.')


class ObjectVersionTooNew(Conflict):
    _msg_fmt = ('%(kind)s %(ident)s was written by a newer release (object '
                'version %(version)s; this service knows %(known)s) and '
                'cannot be changed by this service; nothing was written. '
                'Retry once this service is upgraded, or through an '
                'upgraded one.')


class NodeChanged(Conflict):
    _msg_fmt = ('Node %(node)s was changed by another request while this '
                'one was processed (%(fields)s); nothing was written, '
                'please retry.')


class NodeLocked(Conflict):
    _msg_fmt = ('Node %(node)s is locked by host %(host)s, please retry '
                'after the current operation is completed.')


class DatabaseWriteRefused(IronicException):
    """The database refused a write for what it held (a value too long for
    its column, a constraint): never its SQL or values in the message,
    which may be stored (a node's last_error) or shown."""
    _msg_fmt = ('The database refused to store the changes of %(kind)s '
                '%(ident)s; the service log has the reason.')


class NodeLockLost(Conflict):
    _msg_fmt = ('Node %(node)s is no longer locked by this operation of '
                'conductor %(host)s (its lock was broken; now held by '
                '%(holder)s): the write was dropped.')


class NodeNotLocked(Invalid):
    _msg_fmt = 'Node %(node)s found not to be locked on release'


class InvalidState(Conflict):
    _msg_fmt = 'Invalid resource state.'


class NodeAssociated(InvalidState):
    _msg_fmt = 'Node %(node)s is associated with instance %(instance)s.'


class NodeProtected(HTTPForbidden):
    _msg_fmt = 'Node %(node)s is protected and cannot be undeployed, ' \
               'rebuilt or deleted'


class ConductorAlreadyRegistered(IronicException):
    _msg_fmt = 'Conductor %(conductor)s already registered.'


class NoFreeConductorWorker(IronicException):
    _msg_fmt = 'Requested action cannot be performed due to lack of free ' \
               'conductor workers.'
    code = http_client.SERVICE_UNAVAILABLE


class ServiceUnavailable(IronicException):
    _msg_fmt = '%(reason)s'
    code = http_client.SERVICE_UNAVAILABLE


class HardwareTimeout(IronicException):
    """A BMC did not answer within the bound of a synchronous call
    ([DEFAULT]rpc_response_timeout): an outage of that BMC."""
    _msg_fmt = ('The BMC of node %(node)s did not answer within %(timeout)s '
                'seconds; the request was abandoned and may or may not have '
                'been carried out: please check the node before you retry.')
    code = http_client.SERVICE_UNAVAILABLE


class InstanceDeployFailure(IronicException):
    _msg_fmt = 'Failed to deploy instance: %(reason)s'


class ObjectVersionNotSupported(IronicException):
    _msg_fmt = ('%(objname)s version %(version)s is not supported by this '
                'release of ironic-lite.')


class IncompatibleObjectVersion(IronicException):
    _msg_fmt = ('Version %(objver)s of %(objname)s is not supported: the '
                'newest this release knows is %(supported)s.')


class NodeInMaintenance(Invalid):
    _msg_fmt = ('The %(op)s operation can\'t be performed on node '
                '%(node)s because it\'s in maintenance mode.')


class ConductorTooOld(Conflict):
    _msg_fmt = ('The conductor for this node runs an older release that '
                'cannot handle this request (RPC %(version)s); nothing was '
                'changed. During a rolling upgrade, unpin every conductor '
                'before any API (step 6.1 before 6.3), or pin this API to '
                'the older release.')


class PinnedRelease(Conflict):
    """A request a pinned API cannot carry out: its conductors may not
    know the RPC method yet (see doc/source/admin/upgrade-guide.rst)."""
    _msg_fmt = ('%(what)s is not available while this API is pinned to '
                'release %(pin)s (RPC %(version)s): nothing was changed. '
                'It becomes available when every conductor runs the new '
                'release unpinned and this API is unpinned (rolling upgrade '
                'step 6.3).')


class PinnedHardwareType(PinnedRelease):
    """A node of a hardware type the pinned release does not have: its
    conductors could not manage it (release_mappings.hardware_types)."""
    _msg_fmt = ('Hardware type %(driver)s is not available while this API '
                'is pinned to release %(pin)s, which does not have it: '
                'nothing was changed. It becomes available when every '
                'conductor runs release %(release)s unpinned and this API '
                'is unpinned (rolling upgrade step 6.3).')


class PinnedInterface(PinnedRelease):
    """An interface implementation newer than the pinned release: its
    conductors could not load it (``HardwareType.interfaces_since``)."""
    _msg_fmt = ('The %(iface)s interface %(name)s of hardware type '
                '%(driver)s is new in release %(since)s: it is not '
                'available while this API is pinned to release %(pin)s, '
                'and nothing was changed. It becomes available when every '
                'conductor runs release %(since)s unpinned and this API is '
                'unpinned (rolling upgrade step 6.3).')


class VifAlreadyAttached(Conflict):
    _msg_fmt = ('Unable to attach VIF because VIF %(vif)s is already '
                'attached to Ironic %(object_type)s %(object_uuid)s')


class NoFreePhysicalPorts(Invalid):
    _msg_fmt = 'Unable to attach VIF %(vif)s, not enough free physical ports.'


class VifNotAttached(Invalid):
    _msg_fmt = ('Unable to detach VIF %(vif)s from node %(node)s because it '
                'is not attached to it.')


class UnsupportedDriverExtension(Invalid):
    _msg_fmt = ('Driver %(driver)s does not support %(extension)s '
                '(disabled or not implemented).')


class ServiceStartRefused(IronicException):
    """A service must not start in the current state of the deployment."""
    _msg_fmt = '%(reason)s'


# -- RPC 1.6: rescue, manual cleaning, console, NMI -------------------------

class InstanceRescueFailure(Invalid):
    """Ironic's message; a 400 here (Ironic: 500) -- the request was
    refused, nothing was done."""
    _msg_fmt = ('Failed to rescue instance %(instance)s for node '
                '%(node)s: %(reason)s')


class InstanceUnrescueFailure(Invalid):
    """Ironic's message; a 400 here (Ironic: 500), as the rescue's."""
    _msg_fmt = ('Failed to unrescue instance %(instance)s for node '
                '%(node)s: %(reason)s')


class NodeConsoleNotEnabled(Invalid):
    _msg_fmt = 'Console access is not enabled on node %(node)s'


class NodeTransitioning(Conflict):
    """A boot mode or secure boot change of a node in a transitional
    state (Ironic's words, its ``%(state)s`` filled in)."""
    _msg_fmt = ('Node is in %(state)s state. Since node is transitioning, '
                'the boot mode will not be set as this may interfere with '
                'ongoing changes and result in erroneous modification. Try '
                'again later.')


class NodeIsRetired(Invalid):
    _msg_fmt = ("The %(op)s operation can't be performed on node "
                "%(node)s because it is retired.")


# -- allocations (API 1.52) -------------------------------------------------

class AllocationNotFound(NotFound):
    _msg_fmt = 'Allocation %(allocation)s could not be found.'


class AllocationDuplicateName(Conflict):
    _msg_fmt = 'An allocation with name %(name)s already exists.'


class AllocationAlreadyExists(Conflict):
    _msg_fmt = 'An allocation with UUID %(uuid)s already exists.'


class AllocationFailed(Invalid):
    """No node could be reserved: the allocation's ``last_error``; a 400
    when a backfill (1.58) is refused (Ironic: a 500)."""
    _msg_fmt = 'Failed to process allocation %(uuid)s: %(error)s.'


# -- volume connectors and targets ----------------------------------------

class VolumeConnectorNotFound(NotFound):
    _msg_fmt = 'Volume connector %(connector)s could not be found.'


class VolumeTargetNotFound(NotFound):
    _msg_fmt = 'Volume target %(target)s could not be found.'


class VolumeConnectorAlreadyExists(Conflict):
    _msg_fmt = 'A volume connector with UUID %(uuid)s already exists.'


class VolumeConnectorTypeAndIdAlreadyExists(Conflict):
    _msg_fmt = ('A volume connector with type %(type)s and connector ID '
                '%(connector_id)s already exists.')


class VolumeTargetAlreadyExists(Conflict):
    _msg_fmt = 'A volume target with UUID %(uuid)s already exists.'


class VolumeTargetBootIndexAlreadyExists(Conflict):
    _msg_fmt = ("A volume target with boot index '%(boot_index)s' for the "
                "same node already exists.")


class MalformedRequestURI(Invalid):
    _msg_fmt = 'Malformed request URI.'


class InvalidInput(Invalid):
    """WSME's message for a value it refuses (Ironic's InvalidInput)."""
    _msg_fmt = ("Invalid input for field/attribute %(fieldname)s. "
                "Value: '%(value)s'. %(msg)s")


# -- deploy templates (API 1.55) --------------------------------------------

class DeployTemplateDuplicateName(Conflict):
    _msg_fmt = 'A deploy template with name %(name)s already exists.'


class DeployTemplateAlreadyExists(Conflict):
    _msg_fmt = 'A deploy template with UUID %(uuid)s already exists.'


class DeployTemplateNotFound(NotFound):
    _msg_fmt = 'Deploy template %(template)s could not be found.'


class InvalidDeployTemplate(Invalid):
    _msg_fmt = 'Deploy template invalid: %(err)s.'


class RunbookDuplicateName(Conflict):
    _msg_fmt = 'A runbook with name %(name)s already exists.'


class RunbookAlreadyExists(Conflict):
    _msg_fmt = 'A runbook with UUID %(uuid)s already exists.'


class RunbookNotFound(NotFound):
    _msg_fmt = 'Runbook %(runbook)s could not be found.'


# -- drivers talking to hardware (redfish) -----------------------------------

class DriverOperationError(IronicException):
    _msg_fmt = 'Runtime driver %(driver)s failure. Reason: %(reason)s.'


class RedfishError(DriverOperationError):
    # Ironic answers 500; here a BMC that refuses (wrong credentials, an
    # unsupported action) is the client's to fix: 400.
    _msg_fmt = 'Redfish exception occurred. Error: %(error)s'
    code = http_client.BAD_REQUEST


class RedfishConnectionError(RedfishError):
    # An unreachable BMC is an outage: 503 (Ironic: 500).
    _msg_fmt = 'Redfish connection failed for node %(node)s: %(error)s'
    code = http_client.SERVICE_UNAVAILABLE


class HardwareInspectionFailure(IronicException):
    _msg_fmt = 'Failed to inspect hardware. Reason: %(error)s'

    @property
    def last_error(self):
        # The node's last_error as it is (Ironic's): not wrapped again in
        # the inspection failure's "Failed to inspect hardware".
        return str(self)


class PowerStateFailure(InvalidState):
    _msg_fmt = 'Failed to set node power state to %(pstate)s.'


class NodeInventoryNotFound(NotFound):
    _msg_fmt = ('Node inventory record for node %(node)s could not be '
                'found.')


class InvalidNodeInventory(Invalid):
    _msg_fmt = 'Inventory for node %(node)s is invalid: %(reason)s'


# -- inspection rules (API 1.96), Ironic's -----------------------------------

class InspectionRuleAlreadyExists(Conflict):
    _msg_fmt = 'A rule with UUID %(uuid)s already exists.'


class InspectionRuleNotFound(NotFound):
    _msg_fmt = 'Rule %(rule)s could not be found.'


class InspectionRuleValidationFailure(Invalid):
    """A rule's operator arguments do not fit it (Ironic answers 500;
    a 400 here: doc/source/api/differences.rst)."""
    _msg_fmt = 'Inspection rule validation failed. Reason: %(reason)s'


class InspectionRuleExecutionFailure(HardwareInspectionFailure):
    _msg_fmt = 'Inspection rule execution failed. Reason: %(reason)s'


class RuleActionExecutionFailure(InspectionRuleExecutionFailure):
    _msg_fmt = ('Inspection rule action execution failed. '
                'Reason: %(reason)s')


class RuleConditionCheckFailure(InspectionRuleExecutionFailure):
    _msg_fmt = ('Inspection rule condition check failed. '
                'Reason: %(reason)s')

"""Clean steps: methods of an interface that manual cleaning may run.

An interface marks a method with ``@clean_step(priority, ...)``; the
conductor lists them with ``clean_steps(interface)`` and runs one with
``execute_step(interface, task, step)`` (deploy steps, marked in
``drivers/base.py``, run the same way).  A step is a dict of
Ironic's shape: ``interface``, ``step`` (the method's name),
``priority``, ``abortable``, ``argsinfo`` and ``requires_ramdisk``.
"""

_MARK = '_clean_step'
_SERVICE_MARK = '_service_step'


def clean_step(priority, abortable=False, argsinfo=None,
               requires_ramdisk=True):
    """Mark a method of an interface as a clean step.

    :param priority: its priority in automated cleaning (0: manual only).
    :param argsinfo: {arg name: {'description': str, 'required': bool}},
        the keyword arguments a manual clean may pass it.
    """
    def mark(func):
        setattr(func, _MARK, {'priority': priority, 'abortable': abortable,
                              'argsinfo': argsinfo,
                              'requires_ramdisk': requires_ramdisk})
        return func
    return mark


def service_step(priority=0, abortable=False, argsinfo=None,
                 requires_ramdisk=True):
    """Mark a method of an interface as a service step (API 1.87): one
    that servicing an active node may run (Ironic's ``service_step``)."""
    def mark(func):
        setattr(func, _SERVICE_MARK, {
            'priority': priority, 'abortable': abortable,
            'argsinfo': argsinfo, 'requires_ramdisk': requires_ramdisk})
        return func
    return mark


def _marked(interface, mark):
    if interface is None:
        return []
    found = []
    for name in sorted(dir(type(interface))):
        info = getattr(getattr(type(interface), name, None), mark, None)
        if info is not None:
            found.append(dict(info, step=name,
                              interface=interface.interface_type))
    return found


def clean_steps(interface):
    """Every clean step of ``interface`` (an instance; None: none)."""
    return _marked(interface, _MARK)


def service_steps(interface):
    """Every service step of ``interface`` (an instance; None: none)."""
    return _marked(interface, _SERVICE_MARK)


def execute_step(interface, task, step):
    """Run ``step`` (a validated clean or deploy step dict) of
    ``interface`` on ``task``'s node, with the step's ``args`` as keyword
    arguments."""
    return getattr(interface, step['step'])(task, **(step.get('args') or {}))

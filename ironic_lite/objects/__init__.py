"""Versioned objects: the only layer that talks to ``ironic_lite.db``."""


def register_all():
    # Importing a module registers its objects (and sets objects.<Name>).
    __import__('ironic_lite.objects.chassis')
    __import__('ironic_lite.objects.conductor')
    __import__('ironic_lite.objects.deploy_template')
    __import__('ironic_lite.objects.firmware')
    __import__('ironic_lite.objects.inspection_rule')
    __import__('ironic_lite.objects.inventory')
    __import__('ironic_lite.objects.node')
    __import__('ironic_lite.objects.port')
    __import__('ironic_lite.objects.portgroup')
    __import__('ironic_lite.objects.service')
    __import__('ironic_lite.objects.trait')
    __import__('ironic_lite.objects.allocation')
    __import__('ironic_lite.objects.volume')
    __import__('ironic_lite.objects.bios')
    __import__('ironic_lite.objects.node_history')
    __import__('ironic_lite.objects.runbook')

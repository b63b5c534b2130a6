"""Sphinx configuration of the ironic-lite documentation.

The configuration and policy references (doc/source/configuration) are
generated from the code by oslo.config's and oslo.policy's Sphinx
extensions, from the same namespaces as the samples in ``etc/ironic-lite``.
"""

project = 'ironic-lite'
copyright = 'ironic-lite developers'
author = 'ironic-lite developers'

extensions = [
    'oslo_config.sphinxext',
    'oslo_policy.sphinxext',
]
templates_path = []
exclude_patterns = ['_build']
master_doc = 'index'
html_theme = 'alabaster'

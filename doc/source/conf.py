"""Sphinx configuration of the ironic-lite documentation."""

project = 'ironic-lite'
copyright = 'ironic-lite developers'
author = 'ironic-lite developers'

extensions = []
templates_path = []
exclude_patterns = ['_build']
master_doc = 'index'
html_theme = 'alabaster'

"""The tests, and the helpers that tools/ reuses (tools/bmc_emulator.py,
tools/tempest) -- which import them outside pytest.

futurist imports eventlet when it is installed (oslo.service depends on
it), and eventlet warns on import; neither the tests nor the tools use it.
pytest ignores that warning by its own configuration (pyproject.toml);
a tool started outside pytest ignores it here, as ironic_lite/__init__.py
does for the services, so that it prints no deprecation warning about a
library it never runs.
"""

import warnings

warnings.filterwarnings('ignore', message=r'\s*Eventlet is deprecated',
                        module=r'futurist\._utils')

"""The committed configuration and policy samples are current.

``etc/ironic-lite/ironic.conf.sample`` and ``policy.yaml.sample`` are what
operators copy; an option or a policy rule changed without regenerating
them would make them lie.  Each is regenerated here exactly as ``tox -e
genconfig`` / ``tox -e genpolicy`` do (the same generator and input file,
only the output path differs) and compared with the committed file.

The generators run as subprocesses (in parallel, about a second each):
loading the namespaces changes library defaults in the process that loads
them, which must not leak into the other unit tests.
"""

import difflib
import os
import socket
import subprocess
import sys

import pytest

from tests import timeouts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))

# name -> (generator function, its input file, committed sample, tox env)
SAMPLES = {
    'config': ('oslo_config.generator:main',
               'tools/config/ironic-lite-config-generator.conf',
               'etc/ironic-lite/ironic.conf.sample', 'genconfig'),
    'policy': ('oslo_policy.generator:generate_sample',
               'tools/config/ironic-lite-policy-generator.conf',
               'etc/ironic-lite/policy.yaml.sample', 'genpolicy'),
}

# What the console scripts (oslo-config-generator,
# oslopolicy-sample-generator) run, with this interpreter.
RUNNER = ('import importlib, sys; module, func = sys.argv.pop(1).split(":");'
          ' sys.exit(getattr(importlib.import_module(module), func)())')


def _start(name, output):
    func, config_file, _sample, _env = SAMPLES[name]
    return subprocess.Popen(
        [sys.executable, '-c', RUNNER, func,
         '--config-file', os.path.join(ROOT, config_file),
         '--output-file', str(output)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)


@pytest.fixture(scope='module')
def generated(tmp_path_factory):
    """Both samples regenerated: {name: text}."""
    tmp = tmp_path_factory.mktemp('samples')
    procs = {name: _start(name, tmp / name) for name in SAMPLES}
    texts = {}
    for name, proc in procs.items():
        out, _ = proc.communicate(timeout=timeouts.HANG)
        assert proc.returncode == 0, (
            'the %s generator failed (exit %s):\n%s'
            % (name, proc.returncode, out))
        texts[name] = (tmp / name).read_text()
    return texts


@pytest.mark.parametrize('name', sorted(SAMPLES))
def test_sample_is_current(name, generated):
    _func, _config, sample, env = SAMPLES[name]
    path = os.path.join(ROOT, sample)
    assert os.path.exists(path), (
        '%s is missing: run "tox -e %s"' % (sample, env))
    with open(path) as f:
        committed = f.read()
    if committed != generated[name]:
        diff = ''.join(difflib.unified_diff(
            committed.splitlines(True), generated[name].splitlines(True),
            sample, 'regenerated', n=1))
        pytest.fail('%s is out of date: run "tox -e %s" (or the generator '
                    'in tox.ini) and commit the result.\n%s'
                    % (sample, env, diff[:4000]))


def test_samples_hold_no_machine_specific_value(generated):
    """The samples must be the same on every machine and for every user."""
    values = [ROOT, sys.prefix, os.path.expanduser('~')]
    hostname = socket.gethostname()
    for name, text in generated.items():
        for value in values:
            if len(value) < 2:  # HOME=/ would match every path
                continue
            assert value not in text, (
                '%s sample contains %r (use sample_default=)' % (name, value))
        if len(hostname) > 3:  # a short name could be part of any word
            assert '= %s\n' % hostname not in text, name
    assert '#host = localhost\n' in generated['config']
    assert ('#state_path = $HOME/.local/state/ironic-lite\n'
            in generated['config'])


def test_config_sample_covers_the_groups_the_services_read(generated):
    text = generated['config']
    for group in ('DEFAULT', 'api', 'conductor', 'database', 'fake',
                  'oslo_messaging_rabbit', 'oslo_middleware',
                  'oslo_policy'):
        assert '\n[%s]\n' % group in '\n' + text, group
    for option in ('#pin_release_version = <None>',
                   '#hash_ring_reset_interval = 15',
                   '#conductor_group =', '#port = 6385',
                   '#control_exchange = ironic',
                   '#enable_proxy_headers_parsing = false'):
        assert option in text, option


def test_policy_sample_lists_the_shard_rules(generated):
    text = generated['policy']
    assert '#"baremetal:shards:get":' in text
    assert '#"baremetal:node:update:shard":' in text

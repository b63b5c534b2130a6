#!/usr/bin/env python3
"""Tempest's ironic API tests against this tree's ironic-lite, or real
Ironic 39, and a real Keystone (``tox -e tempest``;
doc/source/contributor/testing.rst).

Steps: tempest 47 and ironic-tempest-plugin 3.2.0 into a cached venv;
Keystone with pre-provisioned accounts and the service in its catalog as
``baremetal``; both services' ``ironic.conf`` as devstack writes it,
checked to differ only in the database, port and state path; the service
chosen (``--service lite``, this tree's ``ironic-lite``, or ``--service
ironic``, Ironic 39's all-in-one ``ironic``) started from its file;
tempest.conf; ``tempest run --regex '^ironic_tempest_plugin.tests.api'``;
a summary (summary.txt and stdout); everything stopped.  The run's files
-- logs, tempest.conf, accounts, stestr's results -- stay in the work
directory (``.tempest/<UTC time>``, ``.tempest/latest`` the newest).
Exit code 0 only when no test failed.

ironic-lite runs with the Python running this script (its ``ironic-lite``
console script beside it): a tox environment's, or any venv with the
tree on PYTHONPATH.
"""

import argparse
import collections
import contextlib
import datetime
import os
import signal
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
if __package__ in (None, ''):  # run as a file: tools/tempest/run.py
    sys.path.insert(0, REPO)

from tests.functional import procs  # noqa: E402
from tools.benchmark import ironic_env  # noqa: E402
from tools.tempest import cloud  # noqa: E402
from tools.tempest import tempest_env  # noqa: E402

DEFAULT_REGEX = '^ironic_tempest_plugin.tests.api'
DEFAULT_MAX_MICROVERSION = '1.115'
# subunit2csv's statuses of a failed test.
FAILED = ('fail', 'failure')


def _args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--regex', default=DEFAULT_REGEX,
                        help='tests to run (default: %(default)s)')
    parser.add_argument('--concurrency', type=int, default=2,
                        help='tempest workers (default: %(default)s)')
    parser.add_argument('--max-microversion',
                        default=DEFAULT_MAX_MICROVERSION,
                        help='[baremetal] max_microversion '
                             '(default: %(default)s)')
    parser.add_argument('--service', choices=cloud.SERVICES,
                        default='lite',
                        help='the service tested: ironic-lite (lite) or '
                             'Ironic %s (ironic); default: %%(default)s'
                             % ironic_env.IRONIC_VERSION)
    parser.add_argument('--workdir',
                        help='where the run keeps its files (default: '
                             '.tempest/<UTC time> in the repository)')
    return parser.parse_args(argv)


def _workdir(requested):
    if requested:
        os.makedirs(requested, exist_ok=True)
        return os.path.abspath(requested)
    base = os.path.join(REPO, '.tempest')
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y%m%dT%H%M%SZ')
    workdir = os.path.join(base, stamp)
    os.makedirs(workdir)
    latest = os.path.join(base, 'latest')
    if os.path.islink(latest):
        os.unlink(latest)
    if not os.path.exists(latest):
        os.symlink(stamp, latest)
    return workdir


def summarise(rows):
    """The summary's text: counts by status, then each failing test."""
    counts = collections.Counter(
        'fail' if status in FAILED else status for _test, status in rows)
    failed = sorted(test for test, status in rows if status in FAILED)
    lines = ['%d passed, %d failed, %d skipped'
             % (counts['success'], counts['fail'], counts['skip'])]
    others = {s: n for s, n in counts.items()
              if s not in ('success', 'fail', 'skip')}
    if others:
        lines.append('other statuses: %s' % others)
    if failed:
        lines.append('Failed tests:')
        lines.extend('  ' + test for test in failed)
    return '\n'.join(lines) + '\n', bool(failed or others)


def _tempest(bindir, workdir, ks, service, args):
    min_version = cloud.microversions(service)[0]
    config = tempest_env.write_config(
        os.path.join(workdir, 'tempest.conf'), workdir, ks,
        os.path.join(workdir, 'accounts.yaml'),
        cloud.fake_hardware_interfaces(service, ks), min_version,
        args.max_microversion)
    print('Running tempest (output: %s)' % os.path.join(
        workdir, 'tempest-run.log'), flush=True)
    with open(os.path.join(workdir, 'tempest-run.log'), 'wb') as log:
        code = tempest_env.run(bindir, workdir, config, args.regex,
                               args.concurrency, log)
    rows = tempest_env.results(bindir, workdir)
    if not rows:
        raise RuntimeError('tempest run exited %s and recorded no test; '
                           'see %s' % (code, log.name))
    text, failed = summarise(rows)
    text = '%s: %s' % (cloud.LABELS[args.service], text)
    with open(os.path.join(workdir, 'summary.txt'), 'w') as f:
        f.write(text)
    print(text, end='')
    return 1 if failed or code else 0


def _exit_on_sigterm(signum, frame):
    sys.exit(128 + signum)  # the finally below stops the services


def main(argv=None):
    args = _args(argv)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    workdir = _workdir(args.workdir)
    print('Work directory: %s' % workdir, flush=True)
    bindir = tempest_env.install()
    ks = service = None
    stack = contextlib.ExitStack()
    try:
        ks = cloud.start_keystone(os.path.join(workdir, 'keystone'))
        ports = {name: procs.free_port() for name in cloud.SERVICES}
        urls = {}
        if args.service == 'ironic':
            urls['ironic_url'] = stack.enter_context(cloud.ironic_database())
        configs = cloud.write_configs(workdir, ks, ports, **urls)
        port = ports[args.service]
        # The catalog and accounts first: the service's token validation
        # and its clients log in as its user.
        tempest_env.write_accounts(
            os.path.join(workdir, 'accounts.yaml'),
            cloud.provision(ks, args.concurrency + 1,
                            'http://127.0.0.1:%d' % port))
        service = cloud.start_service(args.service, configs[args.service],
                                      port)
        return _tempest(bindir, workdir, ks, service, args)
    finally:
        if service is not None:
            code = service.stop()
            if code != 0:
                print('%s exited %s (log: %s)'
                      % (service.label, code, service.log_path))
        if ks is not None:
            ks.stop()
        stack.close()


if __name__ == '__main__':
    sys.exit(main())

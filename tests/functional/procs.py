"""Run ironic-lite's console scripts as real processes for tests."""

import base64
import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from tests import timeouts

BIN = os.path.dirname(sys.executable)


def cache_dir(name):
    """``$XDG_CACHE_HOME/<name>`` (``~/.cache`` when unset): where the
    tests keep what they install once (old releases, Keystone)."""
    base = os.environ.get('XDG_CACHE_HOME') or os.path.join(
        os.path.expanduser('~'), '.cache')
    return os.path.join(base, name)


@contextlib.contextmanager
def file_lock(path):
    """One holder at a time across processes (parallel test sessions)."""
    with open(path, 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def free_port():
    with socket.socket() as sock:
        sock.bind(('127.0.0.1', 0))
        return sock.getsockname()[1]


# The fake console and rescue interfaces the tests set on nodes, enabled
# as an operator enables them (Ironic's [DEFAULT]enabled_<interface>_
# interfaces), with the defaults a node gets kept what they are without
# them; the fake bios interface too, and kept from being fake-hardware's
# default, unless redfish is enabled: its nodes then get the redfish
# one, and fake-hardware's the fake one.
TEST_INTERFACES = {}
for _iface in ('console', 'rescue', 'bios'):
    TEST_INTERFACES['enabled_%s_interfaces' % _iface] = 'fake,no-' + _iface
    TEST_INTERFACES['default_%s_interface' % _iface] = 'no-' + _iface


def _test_interfaces(sections):
    values = dict(TEST_INTERFACES)
    if any('redfish' in str(section.get('enabled_hardware_types', ''))
           for section in sections.values()):
        values['enabled_bios_interfaces'] = 'fake,no-bios,redfish'
        del values['default_bios_interface']
    return values


def write_config(path, sections):
    """Write an ini file from {section: {key: value}}.

    A service's whole stop is bounded by [DEFAULT]graceful_shutdown_timeout
    (it exits 3 past it): unless the test sets it, it is a hang's bound
    here, so that a slow stop on a busy machine is not a failure.  Unless
    the test sets interface options, TEST_INTERFACES (``_test_interfaces``).
    """
    sections = dict(sections)
    sections['DEFAULT'] = dict(sections.get('DEFAULT', {}))
    sections['DEFAULT'].setdefault('graceful_shutdown_timeout',
                                   timeouts.HANG)
    if not any(key.endswith(('_interfaces', '_interface'))
               for key in sections['DEFAULT']):
        sections['DEFAULT'].update(_test_interfaces(sections))
    with open(path, 'w') as f:
        for section, values in sections.items():
            f.write('[%s]\n' % section)
            for key, value in values.items():
                f.write('%s = %s\n' % (key, value))
            f.write('\n')
    return path


def unwrap_table(text):
    """The cells of a prettytable-style output (oslo.upgradecheck's
    result table) on one line: it wraps details at 60 columns, also after
    hyphens (as in "ironic-|api"), and this undoes both."""
    flat = ''
    for line in text.splitlines():
        if line.startswith('|'):
            cell = line.strip().strip('|').strip()
            flat += cell if flat.endswith('-') else ' ' + cell
    return ' '.join(flat.split())


def command(name):
    return os.path.join(BIN, name)


def run(name, *args, check=True, timeout=timeouts.HANG):
    """Run one of this venv's console scripts to completion."""
    return run_command(command(name), *args, check=check, timeout=timeout)


def env_of(path):
    """The environment to run ``path`` in: this venv's commands run with
    the tests' own (PYTHONPATH included: the working tree's code); another
    venv's (an older release, tests/upgrade) without PYTHONPATH, or they
    would import the working tree instead of their own release."""
    if os.path.dirname(os.path.abspath(path)) == os.path.abspath(BIN):
        return None
    return {k: v for k, v in os.environ.items() if k != 'PYTHONPATH'}


def run_command(path, *args, check=True, timeout=timeouts.HANG):
    result = subprocess.run([path] + list(args), env=env_of(path),
                            capture_output=True, text=True, timeout=timeout)
    if check and result.returncode != 0:
        raise AssertionError('%s %s exited %s:\n%s\n%s'
                             % (path, ' '.join(args), result.returncode,
                                result.stdout, result.stderr))
    return result


class Credentials(object):
    """Who a client is: anonymous (``noauth``) or an ``http_basic`` user."""

    def __init__(self, username=None, password=None):
        self.username = username
        self.password = password

    @property
    def auth_type(self):
        """The keystoneauth plugin name the clients take."""
        return 'http_basic' if self.username else 'none'

    def cli_args(self, endpoint):
        """The ``baremetal`` CLI's global authentication options."""
        args = ['--os-auth-type', self.auth_type, '--os-endpoint', endpoint]
        if self.username:
            args += ['--os-username', self.username,
                     '--os-password', self.password]
        return args

    def headers(self):
        """The ``Authorization`` header for :func:`http` (none anonymous)."""
        if not self.username:
            return {}
        token = base64.b64encode(('%s:%s' % (self.username, self.password))
                                 .encode()).decode()
        return {'Authorization': 'Basic ' + token}

    def __repr__(self):
        return '<Credentials %s>' % (self.username or 'noauth')


NOAUTH = Credentials()


def write_htpasswd(path, users):
    """An Apache htpasswd file with bcrypt hashes, as ironic-lite reads it.

    :param users: {name: (password, suffix)}, the suffix being ironic-lite's
        optional ``:roles:project`` fields ('' for a system admin).
    """
    import bcrypt  # only the tests that use http_basic need it
    with open(path, 'w') as f:
        for name, (password, suffix) in users.items():
            digest = bcrypt.hashpw(password.encode(), bcrypt.gensalt(4))
            f.write('%s:%s%s\n' % (name, digest.decode(), suffix))
    return path


def baremetal(service, env, *args, expect_json=True, expect_ok=True,
              credentials=None):
    """Run the real ``baremetal`` CLI against a service.

    :param credentials: who runs the command; by default the service's
        ``credentials`` attribute when it has one, else noauth.
    :returns: the parsed ``-f json`` output, or the text output; with
        ``expect_ok=False`` the command must fail, and its stderr is
        returned.  A command that succeeds must not complain on stderr
        (the client logs there what it could not make sense of).
    """
    if credentials is None:
        credentials = getattr(service, 'credentials', None) or NOAUTH
    cmd = ([command('baremetal')] + credentials.cli_args(service.base)
           + list(args))
    if expect_json and expect_ok:
        cmd += ['-f', 'json']
    result = subprocess.run(cmd, capture_output=True, text=True, env=env,
                            timeout=timeouts.HANG)
    if not expect_ok:
        assert result.returncode != 0, (args, result.stdout)
        return result.stderr
    assert result.returncode == 0, (args, result.stdout, result.stderr,
                                    service.log()[-5000:])
    assert not result.stderr, (args, result.stderr)
    return json.loads(result.stdout) if expect_json else result.stdout


def kill_group(proc, timeout=timeouts.HANG):
    """kill -9 of a process started in a session of its own, with every
    process of its group (a dead host), then reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout)


class Service(object):
    """One service process with its log file."""

    def __init__(self, name, config_file, log_dir, label=None,
                 executable=None):
        self.name = name
        self.label = label or name
        self.log_path = os.path.join(log_dir, '%s.log' % self.label)
        self._log = open(self.log_path, 'ab')
        # A restarted service appends to its log: read only this life's.
        self._log_start = self._log.tell()
        executable = executable or command(name)
        # A session of its own, as a service manager gives it: with
        # [oslo_messaging_rabbit]use_queue_manager, oslo.messaging reads
        # /proc/<process group leader>/stat, and the test runner's group
        # leader may have exited (a runner started from a background
        # shell), which failed every RPC call.  Stopped by its pid.
        self.proc = subprocess.Popen(
            [executable, '--config-file', config_file],
            env=env_of(executable), stdout=self._log,
            stderr=subprocess.STDOUT, start_new_session=True)
        self._terminated = False

    def log(self):
        """What this process (not an earlier one of the label) logged."""
        with open(self.log_path, 'rb') as f:
            f.seek(self._log_start)
            return f.read().decode(errors='replace')

    def alive(self):
        return self.proc.poll() is None

    def terminate(self):
        """Ask for a graceful stop (SIGTERM) without waiting: several
        services stop side by side, then :meth:`stop` waits for each."""
        if self.alive() and not self._terminated:
            self.proc.send_signal(signal.SIGTERM)
            self._terminated = True

    def stop(self, timeout=timeouts.HANG):
        """Graceful stop (SIGTERM); returns the exit code (killed, -9,
        when still running after ``timeout``: a hang)."""
        if self.alive():
            self.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
        return self.proc.returncode


def http(method, url, body=None, version='latest', headers=None,
         timeout=timeouts.HANG):
    """A small JSON HTTP client: returns (status, headers, parsed body)."""
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header('Content-Type', 'application/json')
    if version:
        req.add_header('X-OpenStack-Ironic-API-Version', version)
    for key, value in (headers or {}).items():
        req.add_header(key, value)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            raw = resp.read()
            status, hdrs = resp.status, dict(resp.headers)
    except urllib.error.HTTPError as err:
        raw = err.read()
        status, hdrs = err.code, dict(err.headers)
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw.decode(errors='replace')
    return status, hdrs, parsed


def api(service, method, path, body=None, credentials=None, **kwargs):
    """:func:`http` on ``service.base + path`` as ``credentials`` (by
    default the service's own, as for :func:`baremetal`)."""
    if credentials is None:
        credentials = getattr(service, 'credentials', None) or NOAUTH
    headers = dict(kwargs.pop('headers', None) or {},
                   **credentials.headers())
    return http(method, service.base + path, body, headers=headers, **kwargs)


def wait_for(predicate, timeout=timeouts.HANG, interval=0.2,
             what='condition'):
    """Poll ``predicate`` until it returns a true value; fail after
    ``timeout`` seconds (a hang)."""
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
            if last:
                return last
        except (OSError, urllib.error.URLError) as err:
            last = err
        time.sleep(interval)
    raise AssertionError('timed out waiting for %s (last: %r)'
                         % (what, last))


def while_locked(send, status=lambda answer: answer[0],
                 timeout=timeouts.HANG, interval=0.5):
    """``send()`` again while its answer is a 409 (the node is locked: an
    action runs, or one wrote its state and has not released its lock
    yet), as ironic-python-agent and openstacksdk do, for up to
    ``timeout`` seconds; the last answer.  ``status(answer)`` reads the
    HTTP status (by default answers are (status, body) pairs)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = send()
        if status(answer) != 409 or time.monotonic() > deadline:
            return answer
        time.sleep(interval)


def wait_http(url, service=None, timeout=timeouts.HANG):
    def ready():
        if service is not None and not service.alive():
            raise AssertionError('%s died:\n%s' % (service.label,
                                                   service.log()))
        return http('GET', url, version=None)[0] == 200
    return wait_for(ready, timeout=timeout, what=url)


def wait_provision_state(base, node, state, timeout=timeouts.HANG,
                         headers=None):
    def reached():
        status, _, body = http('GET', '%s/v1/nodes/%s' % (base, node),
                               headers=headers)
        if body and body.get('last_error') and body.get(
                'provision_state', '').endswith('failed'):
            raise AssertionError('node failed: %s' % body['last_error'])
        # Reached once the state is stable and the conductor's worker has
        # let go of the node (it saves the state, then releases the lock).
        if body and body.get('provision_state') == state and not body.get(
                'target_provision_state') and body.get('reservation') is None:
            return body
        return None
    return wait_for(reached, timeout=timeout,
                    what='node %s in %s' % (node, state))


def wait_power_state(base, node, state, timeout=timeouts.HANG,
                     headers=None):
    """Wait for a node's power state; a failed power action (its error in
    ``last_error``, nothing in progress) fails at once, with the error."""
    def reached():
        status, _, body = http('GET', '%s/v1/nodes/%s' % (base, node),
                               headers=headers)
        if not body or body.get('target_power_state'):
            return None
        if body.get('power_state') == state:
            return body
        if body.get('last_error'):
            raise AssertionError('power action failed: %s'
                                 % body['last_error'])
        return None
    return wait_for(reached, timeout=timeout,
                    what='node %s in %s' % (node, state))


class Split(object):
    """What :func:`api_and_conductor` started."""

    def __init__(self, base, api, conductor, api_conf):
        self.base, self.api, self.conductor = base, api, conductor
        self.api_conf = api_conf


@contextlib.contextmanager
def api_and_conductor(workdir, common, api_host, conductor_host,
                      api_sections=None, headers=None):
    """An ``ironic-api`` and an ``ironic-conductor`` of this tree as
    separate processes.

    Both read ``common`` ({section: options}, whose ``api`` section names
    the port) with their own ``host``; the API also ``api_sections``.  The
    schema is upgraded first.  Yields a :class:`Split` once the API answers
    and lists the conductor (asked with ``headers``); afterwards stops both
    and fails unless both exited 0.
    """
    workdir = str(workdir)

    def config(name, host, extra):
        sections = dict(common, DEFAULT=dict(common['DEFAULT'], host=host))
        # One API process unless the test asks for more: the worker
        # processes have tests of their own (test_api_workers.py,
        # test_metrics.py), and a process per core in every split test
        # costs the functional level minutes on two cores.
        sections['api'] = dict({'api_workers': 1}, **common['api'])
        sections.update(extra or {})
        return write_config(os.path.join(workdir, name), sections)

    api_conf = config('api.conf', api_host, api_sections)
    cond_conf = config('conductor.conf', conductor_host, None)
    run('ironic-dbsync', '--config-file', api_conf, 'upgrade')
    conductor = Service('ironic-conductor', cond_conf, workdir)
    api = Service('ironic-api', api_conf, workdir)
    base = 'http://127.0.0.1:%d' % common['api']['port']
    try:
        wait_http(base + '/v1', api)
        wait_for(lambda: http('GET', base + '/v1/conductors',
                              headers=headers)[2].get('conductors'),
                 what='conductor registered')
        yield Split(base, api, conductor, api_conf)
    finally:
        api_code = api.stop()
        cond_code = conductor.stop()
    assert api_code == 0, api.log()
    assert cond_code == 0, conductor.log()

"""The documentation and the release notes build, as part of the tests.

A broken cross-reference, a page missing from the toctree, a bad option
reference or a release note that does not parse would otherwise be found
only when ``tox -e docs`` / ``tox -e releasenotes`` run.  The commands are
those of tox.ini, run with this interpreter.

reno reads the git history (release tags, where each note was added), so
the release note tests need a full clone of the repository.  They run reno
in a local clone of it where tools/tag-releases.sh has tagged every
release recorded in releases/releases.json: a fresh clone of main need not
carry the tags.  So they see the committed notes only.
"""

import configparser
import glob
import json
import os
import re
import subprocess
import sys

import pytest
import yaml

from tests import timeouts

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
DOC_SOURCE = os.path.join(ROOT, 'doc', 'source')
# The ``reno`` console script, with this interpreter (reno has no
# ``python -m reno``).
RENO = [sys.executable, '-c',
        'import sys; from reno.main import main; sys.exit(main(sys.argv[1:]))']


def run(args, timeout=timeouts.HANG, cwd=ROOT):
    """Run a command (from the repository root); (exit code, output).

    The output stops before the "Exception ignored in" noise that reno's
    git library prints at interpreter shutdown.
    """
    proc = subprocess.run(args, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          timeout=timeout)
    return proc.returncode, proc.stdout.split('Exception ignored in')[0]


def test_sphinx_build_has_no_warning(tmp_path):
    """``tox -e docs``: any warning fails the build (-W)."""
    code, out = run([sys.executable, '-m', 'sphinx', '-W', '--keep-going',
                     '-b', 'html', '-d', str(tmp_path / 'doctrees'),
                     DOC_SOURCE, str(tmp_path / 'html')])
    assert code == 0, 'sphinx-build failed (exit %d):\n%s' % (code, out)
    for page in ('index', 'install/index', 'admin/multi-process',
                 'configuration/config-reference', 'cli/ironic-lite'):
        assert (tmp_path / 'html' / (page + '.html')).exists(), page


def _setup_cfg():
    parser = configparser.ConfigParser()
    parser.read(os.path.join(ROOT, 'setup.cfg'))
    return parser


def test_every_console_script_has_a_cli_page():
    scripts = [line.split('=')[0].strip() for line in
               _setup_cfg()['options.entry_points']['console_scripts']
               .strip().splitlines()]
    assert 'ironic-lite' in scripts
    missing = [name for name in scripts if not os.path.exists(
        os.path.join(DOC_SOURCE, 'cli', name + '.rst'))]
    assert missing == [], 'no doc/source/cli/<name>.rst for %s' % missing


def test_option_reference_shows_the_sample_namespaces():
    """The options page and the sample cover the same namespaces."""
    # "namespace" is repeated in the generator file: read it by hand.
    path = os.path.join(ROOT, 'tools', 'config',
                        'ironic-lite-config-generator.conf')
    with open(path) as f:
        sample = [line.split('=', 1)[1].strip() for line in f
                  if re.match(r'namespace\s*=', line)]
    with open(os.path.join(DOC_SOURCE, 'configuration',
                           'config-reference.rst')) as f:
        text = f.read()
    body = text.split('.. show-options::', 1)[1]
    documented = [line.strip() for line in body.splitlines()
                  if line.startswith('   ') and line.strip()
                  and not line.strip().startswith(':')]
    assert documented == sample


def _git_problem():
    """Why reno cannot read the history here, or None."""
    code, out = run(['git', 'rev-parse', '--is-shallow-repository'])
    if code != 0:
        return ('not a git checkout (%s): the release note tests need a '
                'clone of the repository' % out.strip())
    if out.strip() == 'true':
        return ('this clone is shallow: run "git fetch --unshallow" (reno '
                'needs the whole history)')
    return None


@pytest.fixture(scope='module')
def git_history(tmp_path_factory):
    """A clone of this repository with the release tags: its path."""
    problem = _git_problem()
    assert problem is None, problem
    clone = str(tmp_path_factory.mktemp('reno') / 'repo')
    code, out = run(['git', 'clone', '-q', '--no-hardlinks', ROOT, clone])
    assert code == 0, out
    code, out = run([os.path.join(ROOT, 'tools', 'tag-releases.sh'),
                     clone])
    assert code == 0, out
    return clone


def test_reno_lint(git_history):
    code, out = run(RENO + ['lint'], cwd=git_history)
    assert code == 0, 'reno lint failed (exit %d):\n%s' % (code, out)


def _note_sections(root):
    """{note file name: its section keys}, from the YAML files."""
    sections = {}
    notes = os.path.join(root, 'releasenotes', 'notes')
    for path in sorted(glob.glob(os.path.join(notes, '*.yaml'))):
        with open(path) as f:
            sections[os.path.basename(path)] = set(yaml.safe_load(f))
    return sections


def test_reno_report_has_every_note_and_section(git_history, tmp_path):
    from reno import config as reno_config
    titles = {section.name: section.title for section in
              reno_config.Config(git_history, 'releasenotes').sections}
    titles['prelude'] = 'Prelude'
    output = tmp_path / 'notes.rst'
    code, out = run(RENO + ['report', '--output', str(output)],
                    cwd=git_history)
    assert code == 0, 'reno report failed (exit %d):\n%s' % (code, out)
    report = output.read_text()
    with open(os.path.join(ROOT, 'releases', 'releases.json')) as f:
        recorded = sorted(json.load(f)['releases'])
    assert recorded, 'no release recorded in releases/releases.json'
    for release in recorded:
        assert '\n%s\n%s\n' % (release, '=' * len(release)) in report, (
            'no section for release %s in:\n%s' % (release, report))
    notes = _note_sections(git_history)
    assert notes, 'no release note found in %s' % git_history
    for name, keys in notes.items():
        assert 'releasenotes/notes/%s' % name in report, (
            'note %s is missing from the report' % name)
        for key in keys:
            assert key in titles, '%s: unknown section %r' % (name, key)
            heading = '\n%s\n%s\n' % (titles[key], '-' * len(titles[key]))
            assert heading in report, (
                'section %r of %s is missing' % (titles[key], name))


def test_readme_is_valid_restructuredtext():
    """README.rst is the package's long description (setup.cfg)."""
    import docutils.core
    import docutils.utils
    with open(os.path.join(ROOT, 'README.rst')) as f:
        source = f.read()
    try:
        docutils.core.publish_doctree(
            source, source_path='README.rst',
            settings_overrides={'report_level': 2, 'halt_level': 2,
                                'warning_stream': False})
    except docutils.utils.SystemMessage as err:
        pytest.fail('README.rst: %s' % err)
    for command in ('./tools/run-service.sh', './tools/run-tests.sh'):
        assert '\n    %s\n' % command in source, command


def test_the_upgrade_guide_is_for_this_trees_hop():
    """The guide walks the hop this tree makes: from the newest release
    recorded in releases/releases.json to the tree's own release (it was
    left describing an older hop once; a cut must update it)."""
    from ironic_lite import version
    with open(os.path.join(ROOT, 'releases', 'releases.json')) as f:
        recorded = json.load(f)['releases']
    newest = max(recorded, key=lambda n: tuple(map(int, n.split('.'))))
    alias = recorded[newest]['alias']
    with open(os.path.join(DOC_SOURCE, 'admin', 'upgrade-guide.rst')) as f:
        guide = f.read()
    assert guide.splitlines()[1] == 'Rolling upgrade (%s %s to %s)' % (
        newest, alias, version.RELEASE)
    # The pin of the pinned steps, and the release to install first.
    assert re.search(r'\n\s+pin_release_version = %s\n' % re.escape(newest),
                     guide)
    assert 'tools/install_release.py %s ' % newest in guide
    # Each step of the table names the two releases of the hop.
    table = guide[guide.index('\nThe steps\n'):guide.index('\nSchema (')]
    assert 'all %s pinned to %s' % (version.RELEASE, newest) in table
    assert '0        all %s' % newest in table


# A path of this tree, as the documentation and the code name them
# (``doc/source/...``, ``tests/...``); a name preceded by "/" or ":" is
# another place's (``ironic/tests/...`` of Ironic, a URL, or
# ``openstack/ironic:doc/...``), and a ``*.md`` file may be named bare.
_TREE_PATH = re.compile(
    r'(?<![\w./:-])((?:doc|tests|tools|ironic_lite|releasenotes|etc|'
    r'alembic|releases)/[\w./-]*\w\.(?:py|rst|sh|json|yaml|ini|cfg|txt|'
    r'sample|md))\b')
_MD_NAME = re.compile(r'(?<![\w/.:-])([\w-]+\.md)\b')
_SCANNED = ('.py', '.rst', '.md', '.sh', '.txt', '.cfg', '.toml', '.yaml')


def _tracked():
    out = subprocess.run(['git', 'ls-files'], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.split()
    return [f for f in out if os.path.exists(os.path.join(ROOT, f))]


def test_no_file_names_a_file_outside_the_repository():
    """What the code and the documentation point a reader at is in the
    tree: a path of it exists, a Markdown file named is one of it."""
    tracked = _tracked()
    names = {os.path.basename(f) for f in tracked}
    missing = []
    for path in tracked:
        if not path.endswith(_SCANNED):
            continue
        with open(os.path.join(ROOT, path), errors='replace') as f:
            text = f.read()
        missing += ['%s names %s' % (path, p) for p in
                    _TREE_PATH.findall(text)
                    if not os.path.exists(os.path.join(ROOT, p))]
        missing += ['%s names %s' % (path, p) for p in
                    _MD_NAME.findall(text) if p not in names]
    assert missing == []

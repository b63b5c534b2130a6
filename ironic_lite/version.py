"""The code's own release, as recorded by services and shown to operators."""

# The release this tree builds.  It changes only when a release is cut
# (see doc/source/contributor/rolling-upgrades.rst).
RELEASE = '7.0'

# The package's version (PEP 440), what ``pip show ironic-lite`` and every
# command's ``--version`` print: RELEASE + ".0", with ".dev0" until the
# release is cut (the cut commit drops it; the commit after it names the
# next release).  setup.cfg reads it without importing the package, so it
# stays a literal.
VERSION_STRING = '7.0.0.dev0'

"""The code's own release, as recorded by services and shown to operators."""

# The release this tree builds.  It changes only when a release is cut
# (see doc/source/contributor/rolling-upgrades.rst).
RELEASE = '4.0'

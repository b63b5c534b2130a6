"""Build hook: ship the top-level ``alembic/`` tree inside the package.

The migrations live at the repository's top level (where contributors expect
them), but an installed copy of ironic-lite must be able to migrate a
database too, so the build copies them to ``ironic_lite/migrations``.
"""
import pathlib
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildPyWithMigrations(build_py):
    def run(self):
        super().run()
        src = pathlib.Path(__file__).parent / 'alembic'
        dst = pathlib.Path(self.build_lib) / 'ironic_lite' / 'migrations'
        if src.is_dir():
            shutil.copytree(src, dst, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns('__pycache__'))


setup(cmdclass={'build_py': BuildPyWithMigrations})

"""Shared by the tests: a fresh database with the extension on the server
that the PG* environment variables name (scripts/test.sh's throwaway
cluster), created once per process."""

import os
import subprocess
import sys

import psycopg

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)
DATABASE = "simhash_python_clients"
_ready = False


def setup_database():
    """Creates DATABASE anew with the extension; points PGDATABASE at it."""
    global _ready
    if not _ready:
        with psycopg.connect(dbname=os.environ.get("PGDATABASE", "postgres"),
                             autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS %s" % DATABASE)
            conn.execute("CREATE DATABASE %s" % DATABASE)
        os.environ["PGDATABASE"] = DATABASE
        with psycopg.connect() as conn:
            conn.execute("CREATE EXTENSION simhash")
        _ready = True
    return DATABASE


def run_python(path, cwd=PACKAGE_ROOT, extra_path=()):
    """Runs a script with this package importable; returns its stdout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_ROOT, *extra_path])
    result = subprocess.run([sys.executable, path], cwd=cwd, env=env,
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError("%s failed:\n%s%s" % (path, result.stdout, result.stderr))
    return result.stdout


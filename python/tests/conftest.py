"""Shared by the module's pytest files (docs/Python.md, "Tests"): the CLI to compare with, the
bundled samples and the shared traces, and CTest's skip convention (docs/Testing.md): a file whose
tests skipped (../shared absent) exits 77, which its CTest entry reads as skipped, never passed."""

import json
import os
import subprocess

import pytest

SOURCE_DIR = os.environ.get("SIGHTLINE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
TRACES_DIR = os.environ.get("SIGHTLINE_TRACES_DIR", os.path.join(SOURCE_DIR, "..", "shared", "traces"))
CLI = os.environ.get("SIGHTLINE_CLI", "sightline-cli")


def sample(name):
    return os.path.join(SOURCE_DIR, "samples", name)


def shared(name):
    """A path under ../shared/traces; the test skips when it is absent."""
    path = os.path.join(TRACES_DIR, name)
    if not os.path.exists(path):
        pytest.skip(f"real traces not found at {TRACES_DIR} (../shared/traces)")
    return path


def cli(*args, check=True):
    """Runs sightline-cli; returns (exit code, stdout, stderr)."""
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=600)
    if check and p.returncode != 0:
        raise AssertionError(f"sightline-cli {' '.join(map(str, args))} exited {p.returncode}: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    return json.loads(cli(*args)[1])


def cli_error_line(*args):
    """The one line the CLI prints on bad input or usage (its text after 'error: ' / 'usage error: ')."""
    rc, _, err = cli(*args, check=False)
    assert rc in (1, 2), f"sightline-cli {args} exited {rc}"
    line = err.strip().splitlines()[-1]
    for prefix in ("error: ", "usage error: "):
        if line.startswith(prefix):
            line = line[len(prefix):]
    return rc, line.removesuffix(" (see --help)")


def pytest_sessionfinish(session, exitstatus):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if exitstatus == 0 and reporter is not None and reporter.stats.get("skipped"):
        session.exitstatus = 77

"""Bad input raises sightline.Error subclasses with the line `sightline-cli info` prints."""

import glob
import os

import pytest

import sightline
from conftest import SOURCE_DIR, cli_error_line

BAD = os.path.join(SOURCE_DIR, "tests", "data", "bad")


def test_missing_file(tmp_path):
    path = str(tmp_path / "nothing.json")
    _, line = cli_error_line("info", path)
    with pytest.raises(sightline.ReadError) as raised:
        sightline.load(path)
    assert str(raised.value) == line
    assert raised.value.file == path and raised.value.kind == "read"


def test_bad_corpus():
    """Every file of the bad-input corpus the CLI refuses raises the same line, by kind."""
    refused = 0
    for path in sorted(glob.glob(os.path.join(BAD, "*.json")))[:40]:
        rc, line = cli_error_line("info", path) if _refused(path) else (0, None)
        if rc == 0:
            continue
        refused += 1
        with pytest.raises(sightline.Error) as raised:
            sightline.load(path).info()
        assert str(raised.value) == line, path
        assert type(raised.value).__name__.lower().startswith(raised.value.kind), path
    assert refused > 5


def _refused(path):
    from conftest import cli
    return cli("info", path, check=False)[0] != 0


def test_truncated_is_parse_error(tmp_path):
    path = tmp_path / "rank-0.json"
    path.write_text('{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, ')
    _, line = cli_error_line("info", path)
    with pytest.raises(sightline.ParseError) as raised:
        sightline.load(str(path))
    assert str(raised.value) == line

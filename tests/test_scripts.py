"""The README's two commands, CI's script and the requirements they install."""

import json
import re
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ["bin/run", "bin/test", ".ci/run", ".ci/docker/setup.sh"]
# What the container image and compose.yaml run (POSIX sh: the images have no bash promise).
IMAGE_SCRIPTS = ["deploy/entrypoint.sh", "deploy/pg-backup.sh"]
PIN = re.compile(r"^[A-Za-z0-9_.\-]+(\[[a-z0-9,]+\])?==[0-9][A-Za-z0-9.\-+]*$")


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_script_is_executable_bash_that_parses(script):
    path = ROOT / script
    assert path.stat().st_mode & 0o111, f"{script} is not executable"
    assert path.read_text().startswith("#!/usr/bin/env bash\n")
    result = subprocess.run(["bash", "-n", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("script", IMAGE_SCRIPTS)
def test_the_image_script_is_executable_sh_that_parses(script):
    path = ROOT / script
    assert path.stat().st_mode & 0o111, f"{script} is not executable"
    assert path.read_text().startswith("#!/bin/sh\n")
    result = subprocess.run(["sh", "-n", str(path)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_ci_calls_exactly_the_readme_test_command():
    """.ci/run runs the README's test command as it is (beside the container smoke test, which
    it waits for), and fails when it fails."""
    lines = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines() if line.strip()]
    assert "./bin/test || test_rc=$?" in lines
    assert [line for line in lines if "./bin/test" in line and not line.startswith(("#", "echo"))]
    tail = lines[lines.index("./bin/test || test_rc=$?") :]
    assert 'if [ "$docker_rc" -ne 0 ] || [ "$test_rc" -ne 0 ]; then' in tail
    assert "exit 1" in tail
    readme = (ROOT / "README.md").read_text()
    assert "./bin/test" in readme
    assert "./bin/run" in readme


@pytest.mark.parametrize("name", ["requirements.txt", "requirements-dev.txt"])
def test_every_requirement_is_pinned(name):
    lines = [line.split("#")[0].strip() for line in (ROOT / name).read_text().splitlines()]
    requirements = [line for line in lines if line]
    assert requirements
    unpinned = [line for line in requirements if not PIN.match(line)]
    assert unpinned == []


@pytest.mark.parametrize(
    ("host", "port", "expected"),
    [
        ("127.0.0.1", "8000", "http://127.0.0.1:8000"),
        ("dgk.example.org", "8123", "http://dgk.example.org:8123"),
        ("::1", "9000", "http://[::1]:9000"),
    ],
)
def test_bin_run_derives_the_site_address_from_host_and_port(host, port, expected):
    result = subprocess.run(
        ["bash", "-c", f"source {ROOT / 'bin/_site.sh'}; derive_site_url"],
        env={"HOST": host, "PORT": port, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == expected


def test_a_wildcard_address_becomes_the_machines_name():
    result = subprocess.run(
        ["bash", "-c", f"source {ROOT / 'bin/_site.sh'}; derive_site_url"],
        env={"HOST": "0.0.0.0", "PORT": "8000", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert "0.0.0.0" not in result.stdout and result.stdout.strip().endswith(":8000")


def test_bin_run_records_the_site_address_for_the_other_processes(tmp_path):
    recorded = tmp_path / "var" / "site-url"
    subprocess.run(
        [
            "bash",
            "-c",
            f'source {ROOT / "bin/_site.sh"}; record_site_url "$(derive_site_url)"',
        ],
        env={"HOST": "127.0.0.1", "PORT": "8123", "SITE_URL_FILE": str(recorded)},
        check=True,
    )
    assert recorded.read_text().strip() == "http://127.0.0.1:8123"
    assert 'record_site_url "$SITE_URL"' in (ROOT / "bin/run").read_text()


def test_axe_core_is_pinned_to_one_version():
    """The browser tests' accessibility checker: an exact npm version, installed by bin/test."""
    wanted = json.loads((ROOT / "tests/browser/axe/package.json").read_text())["dependencies"]
    assert list(wanted) == ["axe-core"]
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+", wanted["axe-core"]), wanted
    assert "ensure_axe" in (ROOT / "bin/test").read_text()

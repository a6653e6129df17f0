"""The rules engine and the map core are pure Python: they must not import Django.

Each module under the pure packages is imported in a fresh interpreter, which then looks for
django in sys.modules, so an import through any other module counts too. The packages are
walked on every run, so new modules are checked as they are added.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.pure

ROOT = Path(__file__).resolve().parent.parent
PURE_PACKAGES = ("rules", "tabletop", "maps/core")

_PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(m for m in sys.modules if m == "django" or m.startswith("django."))))
"""


def pure_modules() -> list[str]:
    modules = []
    for package in PURE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).with_suffix("")
            parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
            modules.append(".".join(parts))
    return modules


def django_imports(module: str) -> list[str]:
    """The django modules loaded by importing ``module`` in a fresh interpreter."""
    result = subprocess.run(
        [sys.executable, "-c", _PROBE, module],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, f"importing {module} failed:\n{result.stderr}"
    return json.loads(result.stdout)


def test_the_pure_packages_exist():
    modules = pure_modules()
    assert "rules" in modules
    assert "maps.core" in modules


@pytest.mark.parametrize("module", pure_modules())
def test_no_pure_module_imports_django(module):
    assert django_imports(module) == [], f"{module} imports django, directly or through others"


def test_the_probe_notices_a_django_import():
    # A module known to import django must be reported, or the check above proves nothing.
    assert "django.conf" in django_imports("django.conf")

"""Test-suite set-up shared by every test.

- Tasks run eagerly in tests, whatever broker the environment names: tests call services and see
  their effect at once. Only tests marked ``services`` talk to a real broker, which they take
  from ``TEST_BROKER_URL`` (default ``redis://127.0.0.1:6379/15``).
- Test databases are unique per process, so several people (and CI) can run the suite at once
  on one PostgreSQL server: PostgreSQL gets a ``_p<pid>`` suffix, SQLite a file in /dev/shm
  (a file, not an in-memory database, so a Celery worker subprocess can open it too).
- ``browser`` tests (chromium, chromedriver) may skip on a developer's machine, never
  with ``DGK_REQUIRE_SERVICES=1``: there a skip is reported as a failure.
- ``services`` tests skip when Redis is unreachable, unless ``DGK_REQUIRE_SERVICES=1`` (set by
  ``.ci/run``), when they fail instead.
- ``pure`` tests (engine, map core) must not use the database; the module sets
  ``pytestmark = pytest.mark.pure`` itself.
- Map pictures (and the notes asking for them), tiles, books and the nightly backups go to
  temporary folders of the run, never to ``var/`` nor to a bucket: their storages
  (``settings.STORAGES``, ``dgk.files``) are folders there, and a worker subprocess is told them
  through ``FILE_STORAGE=local`` and ``MAP_PICTURES_DIR`` and its kin. A test points a kind
  elsewhere with ``tests.storage.folders.with_folders``.
- ``SITE_URL`` is ``http://localhost:8000`` unless the environment says otherwise, never the
  address a ``./bin/run`` of this checkout recorded in ``var/site-url``.
"""

import os
import shutil
import socket
import tempfile
from pathlib import Path
from urllib.parse import quote, urlparse

import pytest

# The tests never link to the address a ./bin/run of this checkout recorded (var/site-url).
os.environ.setdefault("SITE_URL", "http://localhost:8000")
TEST_BROKER_URL = os.getenv("TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
REQUIRE_SERVICES = os.getenv("DGK_REQUIRE_SERVICES", "") == "1"
_SUFFIX = f"p{os.getpid()}"
# A file that a worker subprocess can open, kept in memory-backed /dev/shm where there is one:
# on a disk, the file costs the suite about a third more time.
_SQLITE_DIR = Path("/dev/shm") if os.access("/dev/shm", os.W_OK) else Path(tempfile.gettempdir())
_SQLITE_TEST_FILE = _SQLITE_DIR / f"dgk-test-{_SUFFIX}.sqlite3"
_PICTURES_DIR = Path(tempfile.gettempdir()) / f"dgk-test-pictures-{_SUFFIX}"


def broker_reachable(url: str = TEST_BROKER_URL, timeout: float = 1.0) -> bool:
    """True when something listens where the test broker URL points."""
    parsed = urlparse(url)
    default_port = 6379 if parsed.scheme.startswith("redis") else 5672
    try:
        with socket.create_connection(
            (parsed.hostname or "127.0.0.1", parsed.port or default_port), timeout=timeout
        ):
            return True
    except OSError:
        return False


def database_url_for_subprocess() -> str:
    """A DATABASE_URL for the current test database, for a subprocess to open on its own.

    Only a test with ``django_db(transaction=True)`` sees the subprocess's writes (and leaves
    no rows behind).
    """
    from django.db import connection

    db = connection.settings_dict
    if connection.vendor == "sqlite":
        if str(db["NAME"]).startswith((":memory:", "file:memorydb")):
            pytest.fail(f"the SQLite test database {db['NAME']} is in memory")
        return f"sqlite:///{db['NAME']}"
    if connection.vendor == "postgresql":
        auth = quote(db["USER"]) + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
        port = f":{db['PORT']}" if db["PORT"] else ""
        return f"postgres://{auth}@{db['HOST'] or ''}{port}/{db['NAME']}"
    pytest.fail(f"no subprocess tests for the {connection.vendor} database")


def _set_test_database_names() -> None:
    from django.conf import settings

    for db_settings in settings.DATABASES.values():
        test = db_settings.setdefault("TEST", {})
        if db_settings["ENGINE"] == "django.db.backends.sqlite3":
            test["NAME"] = str(_SQLITE_TEST_FILE)
        elif not (test.get("NAME") or "").endswith(_SUFFIX):
            test["NAME"] = f"{test.get('NAME') or 'test_' + db_settings['NAME']}_{_SUFFIX}"


def _force_eager_tasks() -> None:
    from django.conf import settings

    from dgk.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True


# Each kind of file of the run (settings.FILE_KINDS) and its *_DIR setting. The photos' own
# tests point them at a folder of the test; every other test that stores a photo (the fog's
# worlds, the season file's import) writes here, never into the project's var/.
_FOLDERS = {
    "pictures": ("MAP_PICTURES_DIR", _PICTURES_DIR),
    "books": ("SEASON_BOOKS_DIR", _PICTURES_DIR.with_name(f"dgk-test-books-{_SUFFIX}")),
    # runperiodic and the beat run the nightly backups too: never into the project's var/.
    "backups": ("BACKUP_DIR", _PICTURES_DIR.with_name(f"dgk-test-backups-{_SUFFIX}")),
    "tiles": ("MAP_TILES_DIR", _PICTURES_DIR.with_name(f"dgk-test-tiles-{_SUFFIX}")),
    "photos": ("PHOTOS_DIR", _PICTURES_DIR.with_name(f"dgk-test-photos-{_SUFFIX}")),
}


def _files_in_temporary_folders() -> None:
    """The storages of the run in its folders, here and in any subprocess it starts."""
    from django.conf import settings
    from django.core.files.storage import storages

    from tests.storage.folders import local

    os.environ["FILE_STORAGE"] = "local"
    for name, folder in _FOLDERS.values():
        os.environ[name] = str(folder)
        setattr(settings, name, folder)
    settings.STORAGES = {
        **settings.STORAGES,
        **{kind: local(folder) for kind, (_name, folder) in _FOLDERS.items()},
    }
    # What Django does when a test changes STORAGES (django.test.signals.storages_changed).
    storages.__dict__.pop("backends", None)
    storages._backends = None
    storages._storages = {}


def _vapid_key_in_a_temporary_folder() -> None:
    from django.conf import settings

    # The push key made at the first push or page that needs it: never the project's var/.
    os.environ["VAPID_KEY_FILE"] = str(_PICTURES_DIR.with_name(f"dgk-test-vapid-{_SUFFIX}.pem"))
    settings.VAPID_KEY_FILE = Path(os.environ["VAPID_KEY_FILE"])


def _fast_password_hashing() -> None:
    from django.conf import settings

    # The real hasher takes a good part of a second per user; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_configure(config: pytest.Config) -> None:
    _set_test_database_names()
    _force_eager_tasks()
    _files_in_temporary_folders()
    _vapid_key_in_a_temporary_folder()
    _fast_password_hashing()


def pytest_report_header(config: pytest.Config) -> list[str]:
    from django.conf import settings

    db = settings.DATABASES["default"]
    vendor = db["ENGINE"].rsplit(".", 1)[-1]
    where = f"{db.get('HOST') or 'local socket'}" if vendor != "sqlite3" else "file"
    reachable = broker_reachable()
    if reachable:
        live = f"live worker tests: RUN (Celery worker over {TEST_BROKER_URL})"
    elif REQUIRE_SERVICES:
        live = f"live worker tests: FAIL ({TEST_BROKER_URL} unreachable, services required)"
    else:
        live = f"live worker tests: SKIP ({TEST_BROKER_URL} unreachable)"
    return [
        f"database: {vendor}, test database {db['TEST']['NAME']} ({where})",
        "broker: tasks run eagerly in tests; " + live,
    ]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_services = None
    if not REQUIRE_SERVICES and not broker_reachable():
        skip_services = pytest.mark.skip(
            reason=f"Redis at {TEST_BROKER_URL} is unreachable (set DGK_REQUIRE_SERVICES=1 "
            "to make this a failure, as .ci/run does)"
        )
    for item in items:
        if item.get_closest_marker("pure") and item.get_closest_marker("django_db"):
            raise pytest.UsageError(f"{item.nodeid} is marked pure but asks for the database")
        if skip_services and item.get_closest_marker("services"):
            item.add_marker(skip_services)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    """With DGK_REQUIRE_SERVICES=1 a browser test may not skip: chromium, chromedriver
    and Selenium are part of what CI must have, so their absence is a failure."""
    outcome = yield
    report = outcome.get_result()
    if REQUIRE_SERVICES and report.skipped and item.get_closest_marker("browser"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"browser test skipped although DGK_REQUIRE_SERVICES=1: {reason}"


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """Keep each process's test database its own (names set in pytest_configure)."""
    _set_test_database_names()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # pytest-django drops PostgreSQL test databases itself; the SQLite file is ours to remove.
    for suffix in ("", "-journal", "-wal", "-shm"):
        path = Path(f"{_SQLITE_TEST_FILE}{suffix}")
        path.unlink(missing_ok=True)
    for _name, folder in _FOLDERS.values():
        shutil.rmtree(folder, ignore_errors=True)


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Say plainly which real services the run used."""
    from django.conf import settings

    outcomes = {}
    for outcome in ("passed", "failed", "error", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            if "services" in getattr(report, "keywords", {}) and report.when in ("call", "setup"):
                outcomes[report.nodeid] = outcome
    counts = {o: list(outcomes.values()).count(o) for o in ("passed", "failed", "error", "skipped")}
    vendor = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    terminalreporter.write_line(
        f"services: database {vendor}; Redis + live Celery worker tests over {TEST_BROKER_URL}: "
        + ", ".join(f"{n} {o}" for o, n in counts.items() if n)
        if outcomes
        else f"services: database {vendor}; no Redis / live worker test selected"
    )


# Standing people for web tests (healthchecks-style). Campaign tests add the players.
PASSWORD = "Kunersdorf-1759"


@pytest.fixture
def organiser(db):
    """A user in the organisers group: may create and run campaigns."""
    from django.contrib.auth.models import User

    from campaign.models import organisers_group

    user = User.objects.create_user("organiser", "organiser@example.org", PASSWORD)
    user.groups.add(organisers_group())
    return user


@pytest.fixture
def outsider(db):
    """A logged-in user with no part in any campaign."""
    from django.contrib.auth.models import User

    return User.objects.create_user("outsider", "outsider@example.org", PASSWORD)

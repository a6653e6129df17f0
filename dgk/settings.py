"""Settings for the Der Grosse König campaign manager.

One module, read from the environment, healthchecks-style: check out, run ``./bin/run``, and it
works on SQLite with eager Celery tasks. Every setting below can be overridden by an environment
variable of the same name; a bad value stops the start with a message that names the variable.
"""

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse
from zoneinfo import available_timezones

import dj_database_url
from csp.constants import NONCE
from django.core.exceptions import ImproperlyConfigured

from dgk import observability

BASE_DIR = Path(__file__).resolve().parent.parent

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: str) -> bool:
    """Read a yes/no variable; anything but the usual spellings is an error."""
    value = os.getenv(name, default).strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a yes/no value: use one of 1, 0, true, false, yes, no, on, off."
    )


def envint(name: str, default: str, minimum: int | None = None) -> int:
    """Read an integer variable, no smaller than ``minimum`` if one is given."""
    value = os.getenv(name, default).strip()
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the smallest allowed, {minimum}.")
    return number


def envlist(name: str, default: str) -> list[str]:
    """Read a comma-separated list; blanks are dropped."""
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def envurl(name: str, default: str, schemes: tuple[str, ...]) -> str:
    """Read a URL variable whose scheme must be one of ``schemes`` (empty stays empty)."""
    value = os.getenv(name, default).strip()
    if value and urlparse(value).scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a URL with one of the schemes {', '.join(schemes)}."
        )
    return value


DEBUG = envbool("DEBUG", "1")

_DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = os.getenv("SECRET_KEY", "")
# Or from a file: the container image keeps the key it generated in its secrets volume.
SECRET_KEY_FILE = os.getenv("SECRET_KEY_FILE", "").strip()
if not SECRET_KEY and SECRET_KEY_FILE:
    try:
        SECRET_KEY = Path(SECRET_KEY_FILE).read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise ImproperlyConfigured(
            f"SECRET_KEY_FILE={SECRET_KEY_FILE!r} cannot be read: {exc.strerror}."
        ) from None
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = _DEV_SECRET_KEY

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must name the host(s) the site is served on when DEBUG is off."
    )

# The site's address for every link in an email. ./bin/run derives it from HOST and PORT and
# records it in SITE_URL_FILE, so a command or a worker started in another shell links to the
# same site as the web server (docs/operations.md).
SITE_URL_FILE = Path(os.getenv("SITE_URL_FILE", "") or BASE_DIR / "var" / "site-url")


def _recorded_site_url() -> str:
    try:
        return SITE_URL_FILE.read_text().strip()
    except OSError:
        return ""


SITE_URL = envurl(
    "SITE_URL", _recorded_site_url() or "http://localhost:8000", ("http", "https")
).rstrip("/")
if not SITE_URL:
    raise ImproperlyConfigured("SITE_URL must be an http(s) URL, e.g. https://dgk.example.org.")
CSRF_TRUSTED_ORIGINS = [SITE_URL]

INSTALLED_APPS = [
    # Before the admin: its sign-in, password reset and lock-out pages (registration/*.html)
    # are the site's own, not the admin's.
    "accounts",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "campaign",
    "battles",
    "letters",
    "orders",
    "maps",
    "mail",
    "seasons",
    "organiser",
    "club",
    "front",
    "push",
    "feeds",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # noindex on every page but the home page (docs/security.md).
    "front.middleware.NoIndexMiddleware",
    # Pages, fragments and JSON gzipped, text only; static files come compressed from
    # WhiteNoise already. BREACH: see docs/performance.md ("Compression").
    "dgk.compression.TextGZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # A signed-in session's end moved on once a day (accounts/middleware.py, issue 44).
    "accounts.middleware.SlidingSessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, the user read with the session in one statement (accounts/sessions.py).
    "accounts.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "front.middleware.BrokerDownMiddleware",
    # django-csp's, a raster picture with a policy of its own (dgk/policy.py).
    "dgk.policy.PolicyMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Sessions last the season and slide (accounts/middleware.py): a player signs in once on his
# phone, not at every deadline (a sign-in is a PBKDF2 check, a quarter second of a core). Kept
# in the database alone (not cached_db: docs/performance.md, "Not done yet", says why), Django's
# table, read with the session's user in one statement (accounts/sessions.py).
SESSION_ENGINE = "accounts.sessions"
SESSION_COOKIE_AGE = envint("SESSION_DAYS", "180", minimum=1) * 24 * 3600
# Password checks one web process runs at once, and sign-ins waiting for one; one more is told
# to try again in a few seconds (accounts/forms.py).
SIGNIN_CONCURRENCY = envint("SIGNIN_CONCURRENCY", "1", minimum=1)
SIGNIN_QUEUE = envint("SIGNIN_QUEUE", "2", minimum=0)

ROOT_URLCONF = "dgk.urls"
WSGI_APPLICATION = "dgk.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: any URL dj-database-url understands; SQLite in the project folder by default.
DATABASE_URL = os.getenv("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}"
try:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
except Exception as exc:  # dj-database-url raises several types for a bad URL
    raise ImproperlyConfigured(f"DATABASE_URL={DATABASE_URL!r} is not usable: {exc}") from None
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite is shared by the web workers and runperiodic: write-ahead logging lets readers
    # and one writer work at once, IMMEDIATE transactions take the write lock up front (no
    # deadlock on upgrade), and a writer waits for the lock rather than fail at once.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Sign-in throttling (django-axes, docs/operations.md, accounts/services/signin.py): after
# AXES_FAILURE_LIMIT wrong passwords for one name from one address, that name is refused from
# there for AXES_COOLOFF_MINUTES; the others behind the address (a club's Wi-Fi) sign in as
# ever. An address with wrong passwords for SIGNIN_ADDRESS_NAMES_LIMIT different names within
# that time is refused for every name. The organiser (board) or `manage.py
# axes_reset_username NAME` / `axes_reset_ip ADDRESS` unlocks at once. Nobody elsewhere can
# lock a player out: guesses for one name from many addresses only slow that name down, up to
# SIGNIN_SLOW_MAX_SECONDS between tries, and the player is told.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("AXES_FAILURE_LIMIT", "5", minimum=1)
AXES_COOLOFF_TIME = timedelta(minutes=envint("AXES_COOLOFF_MINUTES", "15", minimum=1))
# django-axes locks the name and the address together, never the address alone; the address
# lock (several names) is AddressGuard's.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "accounts.services.signin.AddressGuard"
SIGNIN_ADDRESS_NAMES_LIMIT = envint("SIGNIN_ADDRESS_NAMES_LIMIT", "3", minimum=2)
SIGNIN_SLOW_MAX_SECONDS = envint("SIGNIN_SLOW_MAX_SECONDS", "60", minimum=1)
AXES_RESET_ON_SUCCESS = True
# A try while locked is refused unchecked and counts as no wrong password: the lock ends
# AXES_COOLOFF_MINUTES after the wrong password that set it, however often the club retries.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_VERBOSE = False
# Behind a reverse proxy that sets X-Forwarded-For, the number of proxies in front of the site.
AXES_IPWARE_PROXY_COUNT = envint("AXES_PROXY_COUNT", "0", minimum=0) or None
AXES_IPWARE_META_PRECEDENCE_ORDER = (
    ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"] if AXES_IPWARE_PROXY_COUNT else ["REMOTE_ADDR"]
)

# /healthz tells anyone only "ok" or "fail"; staff, or a monitor sending
# "Authorization: Bearer <HEALTHZ_TOKEN>", also read the database, broker and worker details.
HEALTHZ_TOKEN = os.getenv("HEALTHZ_TOKEN", "").strip()

# A refused form (an old page, a new sign-in elsewhere) gets a page in the site's style.
CSRF_FAILURE_VIEW = "front.views.csrf_failure"

LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/campaigns/"
LOGOUT_REDIRECT_URL = "/"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = os.getenv("TIME_ZONE", "UTC").strip()
if TIME_ZONE not in available_timezones():
    raise ImproperlyConfigured(f"TIME_ZONE={TIME_ZONE!r} is not an IANA time zone name.")
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.getenv("STATIC_ROOT", "") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The map widget's tile pyramid (docs/map-widget.md): written by `manage.py rendertiles` (or the
# worker), read by maps.tile_views; one folder per map file and drawing, never changed in place.
MAP_TILES_DIR = Path(os.getenv("MAP_TILES_DIR", "") or BASE_DIR / "var" / "tiles")
# Each seat's map picture of each state version (docs/map-pictures.md): drawn once by the worker
# (maps.pictures), served by orders.picture_views; a version's pictures never change.
MAP_PICTURES_DIR = Path(os.getenv("MAP_PICTURES_DIR", "") or BASE_DIR / "var" / "pictures")
# The book of the season (docs/season-end.md): printed once by the worker when a campaign ends
# (seasons.services.bookfiles), served to its members, never changed in place.
SEASON_BOOKS_DIR = Path(os.getenv("SEASON_BOOKS_DIR", "") or BASE_DIR / "var" / "books")
# The nightly backups (seasons.services.backups, docs/operations.md "Backups and restore"):
# each running campaign's season file, with its dice seed, every BACKUP_EVERY_HOURS; the last
# BACKUP_KEEP files of each campaign are kept. Keep this folder as private as the database.
BACKUP_DIR = Path(os.getenv("BACKUP_DIR", "") or BASE_DIR / "var" / "backups")
# The players' photos of the table after a battle (issue 45, docs/tabletop.md): a display size
# and a thumbnail of each, metadata stripped; the original upload is never kept.
PHOTOS_DIR = Path(os.getenv("PHOTOS_DIR", "") or BASE_DIR / "var" / "photos")
BACKUP_KEEP = envint("BACKUP_KEEP", "7", minimum=1)
BACKUP_EVERY_HOURS = envint("BACKUP_EVERY_HOURS", "24", minimum=1)
# The largest season file read (seasons.services.seasonfile), compressed and decompressed
# alike: a whole played season is under 5 MB of JSON; a larger file is refused unread.
SEASON_FILE_MAX_BYTES = envint("SEASON_FILE_MAX_BYTES", str(64 * 1024 * 1024), minimum=1)
# The players' photos of a battle (docs/tabletop.md, "Photos and accounts of the battle"): limits
# a club never meets and an attacker always hits. One file at most PHOTO_MAX_BYTES (a phone's
# photo is 2-8 MB) and PHOTO_MAX_PIXELS (a 48-megapixel phone sensor shoots 12 MP by default;
# a decompression bomb declares billions); PHOTOS_PER_BATTLE photos a battle; one upload's files
# and the battle's stored photos together at most PHOTOS_MAX_BYTES_PER_BATTLE.
PHOTO_MAX_BYTES = envint("PHOTO_MAX_BYTES", str(15 * 1024 * 1024), minimum=1)
PHOTO_MAX_PIXELS = envint("PHOTO_MAX_PIXELS", "40000000", minimum=1)
PHOTOS_PER_BATTLE = envint("PHOTOS_PER_BATTLE", "20", minimum=1)
PHOTOS_MAX_BYTES_PER_BATTLE = envint(
    "PHOTOS_MAX_BYTES_PER_BATTLE", str(120 * 1024 * 1024), minimum=1
)
# Uploads of photos a player may send in a minute, whatever becomes of them: each may cost the
# server some 0.2 s of reading a file and more of decoding it (docs/security.md, "Doors, 30
# November 2026"). Counted in the cache shared by the web processes; a club's evening of
# photos is one or two uploads.
PHOTO_UPLOADS_PER_MINUTE = envint("PHOTO_UPLOADS_PER_MINUTE", "6", minimum=1)

# Every file the site writes and serves goes through one of these named storages
# (django.core.files.storage.storages[name]); the code never opens the folders above itself.
# By default each is a folder of this machine, the *_DIR setting of its kind: nothing changes for
# a club on one server. docs/operations.md, "When one server is not enough", tells how to put them
# in an S3-compatible bucket instead, so that web servers and workers on several machines share
# them.
FILE_KINDS = {
    "pictures": MAP_PICTURES_DIR,
    "tiles": MAP_TILES_DIR,
    "books": SEASON_BOOKS_DIR,
    "backups": BACKUP_DIR,
    "photos": PHOTOS_DIR,
}
# FILE_STORAGE=s3 puts every kind in one private S3-compatible bucket, each under its own prefix,
# from django-storages' usual variables; the credentials, AWS_ACCESS_KEY_ID and
# AWS_SECRET_ACCESS_KEY, are read from the environment by boto3 itself. Served only by the
# site's views after their access checks: no public ACL, no public URL (dgk.files).
FILE_STORAGE = os.getenv("FILE_STORAGE", "local").strip().lower() or "local"
if FILE_STORAGE not in ("local", "s3"):
    raise ImproperlyConfigured(
        f"FILE_STORAGE={FILE_STORAGE!r}: use local (folders of this machine) or s3 (a bucket)."
    )
if FILE_STORAGE == "s3":
    AWS_STORAGE_BUCKET_NAME = os.getenv("AWS_STORAGE_BUCKET_NAME", "").strip()
    if not AWS_STORAGE_BUCKET_NAME:
        raise ImproperlyConfigured(
            "FILE_STORAGE=s3 needs AWS_STORAGE_BUCKET_NAME, the bucket that holds the files."
        )
    AWS_S3_ENDPOINT_URL = envurl("AWS_S3_ENDPOINT_URL", "", ("http", "https")) or None
    AWS_S3_REGION_NAME = os.getenv("AWS_S3_REGION_NAME", "").strip() or "us-east-1"
    AWS_S3_ADDRESSING_STYLE = os.getenv("AWS_S3_ADDRESSING_STYLE", "").strip() or "path"
for _kind, _folder in FILE_KINDS.items():
    STORAGES[_kind] = (
        {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": AWS_STORAGE_BUCKET_NAME,
                "endpoint_url": AWS_S3_ENDPOINT_URL,
                "region_name": AWS_S3_REGION_NAME,
                "addressing_style": AWS_S3_ADDRESSING_STYLE,
                "location": _kind,
                "default_acl": None,
                "querystring_auth": True,
                "file_overwrite": True,
            },
        }
        if FILE_STORAGE == "s3"
        else {"BACKEND": "dgk.files.WholeFileStorage", "OPTIONS": {"location": str(_folder)}}
    )

# In development (and tests) WhiteNoise serves from the source folders, without collectstatic.
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG

if not DEBUG:
    SESSION_COOKIE_SECURE = SITE_URL.startswith("https://")
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Transport security, switchable (docs/operations.md gives the production values): redirect
# plain HTTP to HTTPS, and tell browsers to use HTTPS only (HSTS) for SECURE_HSTS_SECONDS.
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "0")
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", "0", minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "0")
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "0")
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]  # the load balancers' plain-HTTP probes
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Content Security Policy (django-csp): every script, style and picture from this site only;
# pictures also from data: URLs (the briefings embed the table picture). CSP_REPORT_ONLY=1
# reports breaches to the browser console instead of blocking them.
# The two pages that keep an inline <style> or <script> (the printable briefing, which Chromium
# also prints from a file, and the map page) carry the per-response nonce.
_CSP_DIRECTIVES = {
    "default-src": ["'self'"],
    "script-src": ["'self'", NONCE],
    "style-src": ["'self'", NONCE],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}
if envbool("CSP_ENABLED", "1"):
    if envbool("CSP_REPORT_ONLY", "0"):
        CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": _CSP_DIRECTIVES}
    else:
        CONTENT_SECURITY_POLICY = {"DIRECTIVES": _CSP_DIRECTIVES}

# Email: with no mail server set, a local outbox: each email written to a file in
# EMAIL_FILE_PATH (var/outbox), which the organiser reads on the campaign's Outbox page, the way
# a developer's mail catcher works (issue 26). EMAIL_URL (smtp://user:pass@host:port, smtps://
# for SSL, ?starttls=1 for STARTTLS; console:// prints them in the server's log) or the separate
# EMAIL_HOST... variables configure SMTP.
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "Der Grosse König <dgk@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
EMAIL_URL = envurl("EMAIL_URL", "", ("smtp", "smtps", "console"))
if EMAIL_URL:
    _email = urlparse(EMAIL_URL)
    if _email.scheme == "console":
        EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    else:
        EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        EMAIL_HOST = _email.hostname or ""
        if not EMAIL_HOST:
            raise ImproperlyConfigured(f"EMAIL_URL={EMAIL_URL!r} names no host.")
        EMAIL_PORT = _email.port or (465 if _email.scheme == "smtps" else 25)
        EMAIL_HOST_USER = unquote(_email.username or "")
        EMAIL_HOST_PASSWORD = unquote(_email.password or "")
        EMAIL_USE_SSL = _email.scheme == "smtps"
        EMAIL_USE_TLS = parse_qs(_email.query).get("starttls", ["0"])[0] in _TRUE
elif os.getenv("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.getenv("EMAIL_HOST", "")
    EMAIL_PORT = envint("EMAIL_PORT", "587")
    EMAIL_HOST_USER = os.getenv("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.getenv("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = envbool("EMAIL_USE_TLS", "1")
    EMAIL_USE_SSL = envbool("EMAIL_USE_SSL", "0")
else:
    EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = Path(os.getenv("EMAIL_FILE_PATH", "") or BASE_DIR / "var" / "outbox")
if EMAIL_BACKEND.endswith("smtp.EmailBackend") and EMAIL_USE_TLS and EMAIL_USE_SSL:
    raise ImproperlyConfigured("Choose one of STARTTLS (EMAIL_USE_TLS) and SSL (EMAIL_USE_SSL).")

# Addresses a user gives the site to call (push endpoints, the club's webhook) go through one
# guard, dgk.outbound (docs/security.md, "Addresses the server calls"): loopback and private
# addresses are refused. A club whose webhook is on its own network may allow them; link-local,
# multicast and reserved addresses stay refused. Off by default; never on a cloud server.
OUTBOUND_ALLOW_PRIVATE = envbool("OUTBOUND_ALLOW_PRIVATE", "0")

# Web push notifications (docs/push.md): the VAPID key pair that signs every push. Give
# VAPID_PRIVATE_KEY (a PEM, or the raw key in base64url as `vapid --gen` prints it) or leave it
# empty: the key is then made once, at the first start, in VAPID_KEY_FILE (beside the database
# in development; the container keeps it in its secrets volume) and read from there.
# VAPID_PUBLIC_KEY, if given, must be the private key's; it is derived from it otherwise.
VAPID_PRIVATE_KEY = os.getenv("VAPID_PRIVATE_KEY", "").strip()
VAPID_PUBLIC_KEY = os.getenv("VAPID_PUBLIC_KEY", "").strip()
VAPID_KEY_FILE = Path(os.getenv("VAPID_KEY_FILE", "").strip() or BASE_DIR / "var" / "vapid-key.pem")
# Who runs the site, for the push services (a mailto: or https: address).
VAPID_SUBJECT = envurl("VAPID_SUBJECT", "", ("mailto", "https"))
# Seconds a push service has to take one push, in all (dgk.outbound's deadline).
PUSH_TIMEOUT_SECONDS = envint("PUSH_TIMEOUT_SECONDS", "10", minimum=1)
# The push services a browser's subscription may name (its host, or a host ending in "."
# and one of these): the browsers' own. The worker posts to it, so no other host is taken.
PUSH_SERVICE_HOSTS = envlist(
    "PUSH_SERVICE_HOSTS",
    "fcm.googleapis.com,android.googleapis.com,push.services.mozilla.com,push.apple.com,"
    "notify.windows.com",
)
PUSH_DEVICES_PER_USER = envint("PUSH_DEVICES_PER_USER", "20", minimum=1)

# Orders by email (docs/email-orders.md): calls for orders carry a reply address per seat and
# phase, orders+<token>@ORDERS_MAIL_DOMAIN, or ORDERS_MAILBOX with the token after its "+"
# (plus-addressing). Mail comes in through `manage.py receivemail` (a pipe from the mail server)
# or from the IMAP mailbox IMAP_URL (imaps://user:password@host:993/INBOX), polled every
# IMAP_POLL_SECONDS. Neither set: calls for orders have no reply address.
ORDERS_MAIL_DOMAIN = os.getenv("ORDERS_MAIL_DOMAIN", "").strip().lstrip("@")
ORDERS_MAILBOX = os.getenv("ORDERS_MAILBOX", "").strip()
if ORDERS_MAILBOX and "@" not in ORDERS_MAILBOX:
    raise ImproperlyConfigured("ORDERS_MAILBOX must be a mail address, e.g. club@example.org.")
ORDERS_MAIL_MAX_BYTES = envint("ORDERS_MAIL_MAX_BYTES", "100000", minimum=1000)
IMAP_URL = envurl("IMAP_URL", "", ("imap", "imaps"))
IMAP_CA_FILE = os.getenv("IMAP_CA_FILE", "").strip()  # a CA bundle for the IMAP server's TLS

# Celery. With a broker (CELERY_BROKER_URL, or REDIS_URL), a worker process does the work and
# Celery beat runs the periodic tasks. With none, the embedded default: tasks run eagerly in the
# web process (queued by callers with transaction.on_commit), and `manage.py runperiodic` runs the
# same beat schedule. See docs/operations.md.
CELERY_BROKER_URL = envurl(
    "CELERY_BROKER_URL",
    os.getenv("REDIS_URL", ""),
    ("redis", "rediss", "amqp", "amqps", "memory"),
)
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
if CELERY_TASK_ALWAYS_EAGER:
    # Nothing is sent anywhere; naming the in-memory transport keeps Celery from looking for
    # its default AMQP server on localhost.
    CELERY_BROKER_URL = "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
# The queue tasks go to unless told otherwise (Celery's "celery"): the tests' workers each take a
# queue of their own, and the tasks their tasks queue (the sweep's resolutions) must follow.
CELERY_TASK_DEFAULT_QUEUE = os.getenv("CELERY_TASK_DEFAULT_QUEUE", "").strip() or "celery"

# The cache: what each seat sees of each state version (campaign/services/viewcache.py).
# CACHE_URL, else the Redis broker's URL: every web process and the worker share it; with no
# Redis, each process keeps its own in local memory. See docs/performance.md.
CACHE_URL = envurl(
    "CACHE_URL",
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else "",
    ("redis", "rediss", "locmem"),
)
if CACHE_URL.startswith("redis"):
    # Redis down or restarting: reads miss and writes are dropped (dgk/cache.py), so pages are
    # computed without the cache instead of failing; a dead server is waited on 2 s at most.
    CACHES = {
        "default": {
            "BACKEND": "dgk.cache.DegradingRedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "dgk",
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 2000},
        }
    }
# What each web process keeps of those views and derived values in its own memory, in front of
# that cache (viewcache._kept): about 11 a seat with a player (a seat's four pages, about 150 KB
# pickled), so the default holds some 180 seats' pages a process (about 30-60 MB). Fewer than
# the players of a deadline hour, and each request unpickles what it shows from Redis again.
VIEW_CACHE_ENTRIES = envint("VIEW_CACHE_ENTRIES", "2048", minimum=16)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# The worker's processes (WORKER_CONCURRENCY): one a core but one, at least one. A worker that
# can take every core takes them from the web at a deadline, nice or not: at the deadline hour's
# 200 players on 2 cores, 2 processes drawing pictures left the players' requests p95 1.0-1.5 s,
# 1 left them 0.3-0.6 s (docs/performance.md, "The fourth pass"). A machine that only works
# (compose.several.yaml's workers, a mass deadline with no one on the pages) may set more.
CELERY_WORKER_CONCURRENCY = envint(
    "WORKER_CONCURRENCY", str(max(1, (os.cpu_count() or 1) - 1)), minimum=1
)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Priorities (Redis: 0 first; kombu's steps 0, 3, 6, 9, a list each, read in that order): the
# resolutions, emails and pushes at the default 0; the seats' warmed pages at 6; the map
# pictures, tiles and the book at 9. A sweep that queues a thousand resolutions sees them
# resolved before the pictures they ask for are drawn (docs/performance.md, "The sweep fans out").
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600, "queue_order_strategy": "priority"}
# Each task's priority by its name (``campaign.services.queue`` names them), as Celery wants it
# (a task's own ``priority`` attribute is deprecated); a task not named here runs at 0.
CELERY_TASK_ROUTES = {
    "orders.tasks.warm_seat_pages": {"priority": 6},
    "maps.tasks.draw_map_picture": {"priority": 9},
    "maps.tasks.render_map_tiles": {"priority": 9},
    "seasons.tasks.print_season_book": {"priority": 9},
    # The periodic look for pictures and books wanted (beat, every PICTURE_SECONDS): drawing
    # work too, behind the resolutions queued at the deadline (issue 44's bench saw it ahead).
    "maps.tasks.draw_wanted_map_pictures": {"priority": 9},
    "seasons.tasks.print_wanted_season_books": {"priority": 9},
}
# The one beat schedule: Celery beat reads it with a broker, runperiodic without one.
# Seconds between runs, keyed by the task's dotted name.
# The heartbeat every 30 s and /healthz failing when it is 120 s old: a dead worker is told within
# two minutes, and a worker busy for a minute and a half is not.
HEARTBEAT_SECONDS = envint("HEARTBEAT_SECONDS", "30", minimum=1)
PERIODIC_TASKS = {
    "campaign.tasks.record_heartbeat": HEARTBEAT_SECONDS,
    "campaign.tasks.sweep_deadlines": envint("SWEEP_SECONDS", "60", minimum=1),
    "campaign.tasks.send_reminders": envint("REMINDER_SECONDS", "300", minimum=1),
    # The battles' reminders and alerts, and final results waiting for a paused campaign.
    "battles.tasks.sweep_battles": envint("SWEEP_SECONDS", "60", minimum=1),
    # Daily digests go out when a seat's last is a day old: checking every 15 minutes is enough.
    "mail.tasks.send_digests": envint("DIGEST_SECONDS", "900", minimum=1),
    # A resolution's emails whose task was lost (broker down, worker killed): docs/operations.md.
    "mail.tasks.send_pending_emails": envint("OUTBOX_SECONDS", "60", minimum=1),
    # Without a broker the web only leaves notes for the map pictures it wants; this draws them.
    "maps.tasks.draw_wanted_map_pictures": envint("PICTURE_SECONDS", "10", minimum=1),
    # ... and the books of the season it wants (a campaign that ended).
    "seasons.tasks.print_wanted_season_books": envint("PICTURE_SECONDS", "10", minimum=1),
    # Looks every 5 minutes for running campaigns with no backup yet (a campaign just started:
    # its first file comes minutes later, beat's first run included) or whose last backup is
    # BACKUP_EVERY_HOURS old. A look that finds nothing due costs a folder listing per campaign.
    "seasons.tasks.backup_campaigns": envint("BACKUP_CHECK_SECONDS", "300", minimum=1),
    # The club's channel: posts without a broker, and the tries again (docs/club.md).
    "club.tasks.deliver_due_posts": envint("CLUB_POST_SECONDS", "30", minimum=1),
}
# Seconds the club's webhook has to answer a post, in all (connection, TLS, the whole answer).
CLUB_HOOK_TIMEOUT = envint("CLUB_HOOK_TIMEOUT", "5", minimum=1)
if IMAP_URL:  # orders by email from a mailbox (orders.mailbox)
    PERIODIC_TASKS["orders.tasks.poll_orders_mailbox"] = envint(
        "IMAP_POLL_SECONDS", "30", minimum=5
    )
# A window the sweep queued this long ago and whose task has not ended (lost with the broker's
# memory, say) is queued again (campaign.services.sweep). Longer than a backlog of resolutions
# takes to drain (docs/performance.md, "The sweep fans out").
SWEEP_CLAIM_SECONDS = envint("SWEEP_CLAIM_SECONDS", "900", minimum=60)
CELERY_BEAT_SCHEDULE = {
    name: {"task": name, "schedule": float(seconds)} for name, seconds in PERIODIC_TASKS.items()
}
# An email of the outbox claimed this long ago and not sent (its worker died) is sent again;
# one never claimed is sent by the sweep once it is this old (its task was lost).
OUTBOX_RETRY_SECONDS = envint("OUTBOX_RETRY_SECONDS", "300", minimum=1)
# Less free space than this (MB) in a folder the site writes to makes /healthz "degraded".
DISK_MIN_FREE_MB = envint("DISK_MIN_FREE_MB", "200", minimum=0)
# A heartbeat older than this makes /healthz answer 503 (periodic work has stopped).
HEARTBEAT_MAX_AGE_SECONDS = envint("HEARTBEAT_MAX_AGE_SECONDS", "120", minimum=1)
if HEARTBEAT_MAX_AGE_SECONDS <= HEARTBEAT_SECONDS:
    raise ImproperlyConfigured(
        "HEARTBEAT_MAX_AGE_SECONDS must be longer than HEARTBEAT_SECONDS, or /healthz would fail "
        "between two heartbeats."
    )

# Logs: plain lines by default; LOG_FORMAT=json writes one JSON object per line (time, level,
# logger, message, exc_info) for a log collector (dgk/observability.py, docs/operations.md).
LOG_FORMAT = os.getenv("LOG_FORMAT", "text").strip().lower() or "text"
if LOG_FORMAT not in ("text", "json"):
    raise ImproperlyConfigured(f"LOG_FORMAT={LOG_FORMAT!r} is not one of text, json.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": observability.JSON_FORMATTER},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        }
    },
    "filters": {"one_line_403": {"()": "front.logfilters.OneLineForbidden"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "INFO").upper()},
    "loggers": {
        # django-axes logs every sign-in at INFO; its warnings (a lock-out) are what matter.
        "axes": {"level": "WARNING"},
        # A 403 is one line, not a traceback (front.logfilters).
        "django.request": {"filters": ["one_line_403"]},
    },
}
# The worker and beat log through the same handler (Celery would put its own plain format on
# the root logger otherwise).
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"

# Error reports to Sentry (or a Sentry-compatible server such as GlitchTip), off unless
# SENTRY_DSN is set; no player data is sent (dgk/observability.py, docs/operations.md).
SENTRY_DSN = envurl("SENTRY_DSN", "", ("http", "https"))
if SENTRY_DSN:
    try:
        _traces = float(os.getenv("SENTRY_TRACES_SAMPLE_RATE", "0") or "0")
    except ValueError:
        raise ImproperlyConfigured("SENTRY_TRACES_SAMPLE_RATE is not a number.") from None
    observability.init_sentry(
        SENTRY_DSN,
        environment=os.getenv("SENTRY_ENVIRONMENT", "production").strip() or "production",
        traces_sample_rate=_traces,
    )

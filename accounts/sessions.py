"""The session and its user read in one statement (issue 44, every signed-in request's fixed
cost): ``SESSION_ENGINE = "accounts.sessions"``, with ``accounts.middleware.
AuthenticationMiddleware``.

Django reads a signed-in request's session row, decodes it, and then reads the user row it
names: two statements. The user a session names never changes while its key lives (signing in
always gives the session a new key: ``login`` cycles or flushes it), so once this process has
decoded a key's session it knows which user to join to it, and the next request with that key
reads both rows in one statement. Nothing is kept but that pairing: both rows are read from the
database on every request, so signing out (the row deleted) and a password change (the user's
hash, checked against the session's by ``accounts.middleware.get_user`` as Django checks it)
act at once, in every process. A pairing that turned out wrong (the decoded session names
another user) is dropped and Django's own two statements are used.

The table, the cookie and the session's data are Django's database sessions' own
(``django.contrib.sessions.backends.db``): switching this on or off signs nobody out.
"""

from __future__ import annotations

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.sessions.backends import db
from django.core.exceptions import ValidationError
from django.db import connections, router
from django.utils import timezone

# session key -> the primary key (as Django's ``_get_user_session_key`` reads it) of the user
# its session names, learnt when this process decodes it. Bounded: emptied when full (each
# pairing is learnt again by the next request of its session).
_USER_OF_KEY: dict[str, object] = {}
MAX_PAIRINGS = 50_000

# What the store found for the auth middleware: (user pk, the user row or None if it is gone).
NOT_READ = None


class SessionStore(db.SessionStore):
    """Django's database session store, whose load also reads the session's user when this
    process already knows who it is (``user_row``, for ``accounts.middleware.get_user``)."""

    # (user pk, the User read with the session or None if no such row), or NOT_READ.
    user_row: tuple[object, object] | None = NOT_READ

    def load(self) -> dict:
        user_pk = _USER_OF_KEY.get(self.session_key) if self.session_key else None
        data = super().load() if user_pk is None else self._load_with_user(user_pk)
        if self.session_key and SESSION_KEY in data:
            pk = _user_pk(data[SESSION_KEY])
            if pk is not None:
                if len(_USER_OF_KEY) >= MAX_PAIRINGS:
                    _USER_OF_KEY.clear()
                _USER_OF_KEY[self.session_key] = pk
            if self.user_row is not NOT_READ and self.user_row[0] != pk:
                self.user_row = NOT_READ  # not the user the session names: Django reads it
        return data

    def _load_with_user(self, user_pk) -> dict:
        """The session row and the user row ``user_pk`` in one statement."""
        row = _read_both(self.model, self.session_key, user_pk)
        if row is None:  # no such session, or expired: as Django's ``_get_session_from_db``
            self._session_key = None
            return {}
        session_data, user = row
        self.user_row = (user_pk, user)
        return self.decode(session_data)

    def delete(self, session_key=None) -> None:
        _USER_OF_KEY.pop(session_key or self.session_key, None)
        super().delete(session_key)


def _user_pk(value):
    try:
        return get_user_model()._meta.pk.to_python(value)
    except ValidationError:
        return None


def _read_both(session_model, session_key: str, user_pk):
    """(session_data, the User or None) of an unexpired session, or None."""
    alias = router.db_for_read(session_model)
    connection = connections[alias]
    sql, converters = _plan(session_model, alias)
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_pk, session_key, now])
        row = cursor.fetchone()
    if row is None:
        return None
    user_model = get_user_model()
    values = list(row[1:])
    if values[_pk_index(user_model)] is None:
        return row[0], None  # the user is gone
    for i, functions, col in converters:
        for convert in functions:
            values[i] = convert(values[i], col, connection)
    fields = user_model._meta.concrete_fields
    return row[0], user_model.from_db(alias, [f.attname for f in fields], values)


_PLANS: dict[tuple, tuple[str, list]] = {}


def _plan(session_model, alias: str) -> tuple[str, list]:
    """The statement, and what the ORM's compiler applies to each user column read from this
    database (SQLite's dates and booleans, say), made once per database."""
    user_model = get_user_model()
    key = (session_model, user_model, alias)
    if key not in _PLANS:
        connection = connections[alias]
        quote = connection.ops.quote_name
        sessions = quote(session_model._meta.db_table)
        users = quote(user_model._meta.db_table)
        fields = user_model._meta.concrete_fields
        columns = ", ".join(f"{users}.{quote(f.column)}" for f in fields)
        sql = (
            f"SELECT {sessions}.{quote('session_data')}, {columns} FROM {sessions} "
            f"LEFT OUTER JOIN {users} ON {users}.{quote(user_model._meta.pk.column)} = %s "
            f"WHERE {sessions}.{quote('session_key')} = %s "
            f"AND {sessions}.{quote('expire_date')} > %s"
        )
        converters = []
        for i, field in enumerate(fields):
            col = field.get_col(user_model._meta.db_table)
            functions = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
            if functions:
                converters.append((i, functions, col))
        _PLANS[key] = (sql, converters)
    return _PLANS[key]


def _pk_index(user_model) -> int:
    return [f.primary_key for f in user_model._meta.concrete_fields].index(True)

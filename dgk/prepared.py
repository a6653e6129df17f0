"""Querysets of a fixed shape whose SQL is compiled once per process (issue 44, the deadline hour).

Every player page reads the seat with its campaign and the open window with its version and the
seat's sheet (``orders.access``): the same two statements on every request, only the ids
differing. Django compiles a queryset's SQL anew each time it runs it, and under load that
compiling was a quarter of the web processes' time in the orders flow (py-spy, the flat-out
scenario: ``SQLCompiler.as_sql``, most of it building the select lists of the joined models).

``Prepared(build, *examples)`` compiles ``build(*examples)`` once per database alias, finds
where each example value went among the statement's parameters, and from then on runs the same
SQL with the values of the call put in their places, through Django's own model iterable (the
instances, their ``select_related`` objects and annotations are made exactly as the queryset
would make them: the compiler of the first run lends its select list, converters included).
A call returns the list of instances, never a queryset: nothing can be chained onto SQL that
is already written. The call's own queryset is a bare one of the model (its filters would never
be compiled, so they are not built); the shape's ``build`` runs once, and again only where a
call falls back to Django.

What keeps it honest:
- the examples must be values that cannot be mistaken for a constant of the query (a random
  UUID, a large random int), each found exactly once among the parameters, in a form this
  module knows (as is, a UUID's hex); otherwise the shape is not prepared and every call runs
  the queryset as Django would;
- a call whose value is not of its example's type runs the queryset as Django would;
- a shape that locks rows (``select_for_update``) is run only in a transaction, as Django
  checks when it compiles one (compiled once, the check is made at each call instead);
- a ``rewrite`` of the statement (a lock of another strength on a joined table, which Django
  cannot write) is the caller's, and its test's;
- ``tests/orders/test_prepared.py`` holds the results and the statements to the plain
  querysets', on SQLite and PostgreSQL.
"""

from __future__ import annotations

import contextlib
import random
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.db import connections, transaction
from django.db.models import QuerySet
from django.db.transaction import TransactionManagementError

# What the compiler's first run sets up and the model iterable reads back (``setup_query``).
_STATE = ("select", "klass_info", "annotation_col_map", "col_count", "has_extra_select")
_FORMS: dict[str, Callable] = {"same": lambda v: v, "hex": lambda v: v.hex}


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple[tuple[int, str, type], ...]  # (index in params, form, the example's type)
    state: dict
    model: type
    locks: bool  # select_for_update: run only in a transaction, as Django insists

    def params_for(self, values: tuple) -> list | None:
        """The statement's parameters with ``values`` in their places; None when a value is
        not of its example's type."""
        params = list(self.params)
        for value, (index, form, kind) in zip(values, self.slots, strict=True):
            if type(value) is not kind:
                return None
            params[index] = _FORMS[form](value)
        return params


class Prepared:
    """``build(*values)`` -> the queryset (every filter, ordering and slice in it); ``examples``:
    one value of each argument's type, unlike any constant of the query. Call it with the
    values: the instances the queryset would give, as a list."""

    def __init__(
        self,
        build: Callable[..., QuerySet],
        *examples,
        alias: str = "default",
        rewrite: Callable[[str, object], str] | None = None,
    ) -> None:
        """``rewrite(sql, connection)``: the compiled statement as it is to be run, for what
        Django cannot say (a lock of another strength on a joined table); the parameters must
        stay as they are. A call that falls back runs Django's own statement."""
        self.build, self.examples, self.alias, self.rewrite = build, examples, alias, rewrite
        self._compiled: dict[str, _Compiled | None] = {}
        self._lock = threading.Lock()

    def __call__(self, *values) -> list:
        compiled = self._for(self.alias)
        params = compiled.params_for(values) if compiled is not None else None
        if params is None:
            return list(self.build(*values))
        connection = connections[self.alias]
        if (
            compiled.locks
            and connection.features.has_select_for_update
            and connection.get_autocommit()
        ):
            # What Django checks when it compiles a locking query.
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        # A bare queryset of the model: its own filters would never be compiled, so they are
        # not built (building them was about a third of a call's time, py-spy).
        queryset = QuerySet(model=compiled.model, using=self.alias)
        queryset.query.get_compiler = _lend(queryset.query, compiled, params)
        return list(queryset)

    def compiled(self) -> _Compiled | None:
        """What was compiled (None: not preparable, run as Django would)."""
        return self._for(self.alias)

    def _for(self, alias: str) -> _Compiled | None:
        if alias not in self._compiled:
            with self._lock:
                if alias not in self._compiled:
                    self._compiled[alias] = self._compile(alias)
        return self._compiled[alias]

    def _compile(self, alias: str) -> _Compiled | None:
        query = self.build(*self.examples).query
        compiler = query.get_compiler(using=alias)
        # A locking query compiles only in a transaction (once: a savepoint when one is open).
        locks = bool(query.select_for_update)
        with transaction.atomic(using=alias) if locks else contextlib.nullcontext():
            sql, params = compiler.as_sql()
        slots = []
        for example in self.examples:
            found = [
                (index, form)
                for index, param in enumerate(params)
                for form, convert in _FORMS.items()
                if (form == "same" or isinstance(example, uuid.UUID))
                and _is(param, convert(example))
            ]
            if len(found) != 1:
                return None
            slots.append((*found[0], type(example)))
        if len({index for index, _, _ in slots}) != len(slots):
            return None
        if self.rewrite is not None:
            sql = self.rewrite(sql, compiler.connection)
        state = {name: getattr(compiler, name) for name in _STATE}
        return _Compiled(sql, tuple(params), tuple(slots), state, query.model, locks)


def example_id() -> int:
    """An id for a compiling run's ``examples``: unlike any constant of a query."""
    return random.randrange(2**40, 2**50)


def _is(param, value) -> bool:
    return type(param) is type(value) and param == value


def _lend(query, compiled: _Compiled, params: list):
    """A ``get_compiler`` for this one query: a compiler of the calling thread's connection,
    with the first run's select list and this call's statement."""

    def get_compiler(using=None, connection=None, elide_empty=True):
        connection = connection or connections[using]
        compiler = connection.ops.compiler(query.compiler)(query, connection, using, elide_empty)
        compiler.__dict__.update(compiled.state)
        compiler.as_sql = lambda *args, **kwargs: (compiled.sql, params)
        return compiler

    return get_compiler

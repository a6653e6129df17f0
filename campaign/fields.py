"""Model fields of our own."""

from __future__ import annotations

from django.db import models
from psycopg.types.json import Json, Jsonb


class TextJSONField(models.JSONField):
    """JSON stored as its text on PostgreSQL (the ``json`` type, not ``jsonb``), for documents
    that are written once, read whole and never searched inside: a state version's state.

    PostgreSQL then only checks the text instead of converting it to ``jsonb``'s binary form,
    so an insert of a 25 KiB state costs 0.66 ms against 0.96 ms and the table is a quarter
    smaller (docs/performance.md, "The last mile"); and the document reads back in the order it
    was written, as on SQLite (``jsonb`` sorts an object's keys by length, then bytes). The
    ``jsonb`` lookups (``has_key``, ``contains``, key transforms) do not work on it. Other
    databases keep Django's JSONField as it is."""

    def db_type(self, connection):
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value, connection, prepared=False):
        adapted = super().get_db_prep_value(value, connection, prepared)
        if isinstance(adapted, Jsonb):
            # Django adapts the value as jsonb (psycopg's Jsonb); sent as json, the server
            # does not build the binary form only to cast it back.
            return Json(adapted.obj, dumps=adapted.dumps)
        return adapted

    def from_db_value(self, value, expression, connection):
        if value is not None and not isinstance(value, (str, bytes, bytearray)):
            return value  # psycopg decodes a json column itself (Django's loader is for jsonb)
        return super().from_db_value(value, expression, connection)

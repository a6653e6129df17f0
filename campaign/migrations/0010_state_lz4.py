"""The state versions' JSON compressed with lz4 on PostgreSQL (docs/performance.md).

A version's ``state`` is about 25 KiB of JSON, which PostgreSQL compresses as it stores it
(TOAST). Its default method, pglz, is slow to write; lz4 (PostgreSQL 14 and newer, when built
with it, as Debian's packages are) writes the season's versions faster for a few per cent more
space. Rows already stored keep their compression. Nothing is done on SQLite, or where lz4 is
not available.
"""

from django.db import migrations

TABLE = "campaign_stateversion"


def _lz4(connection) -> bool:
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
        )
        row = cursor.fetchone()
    return bool(row and row[0])


def _set(method: str):
    def run(apps, schema_editor) -> None:
        if _lz4(schema_editor.connection):
            sql = f"ALTER TABLE {TABLE} ALTER COLUMN state SET COMPRESSION {method}"
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("campaign", "0009_next_year")]

    operations = [migrations.RunPython(_set("lz4"), _set("pglz"))]

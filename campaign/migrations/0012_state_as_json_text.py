"""A state version's ``state`` stored as PostgreSQL's ``json`` (its text) instead of ``jsonb``
(``campaign.fields.TextJSONField``; docs/performance.md, "The last mile"): written once, read
whole, never searched inside. Changing the column's type drops its compression method, so lz4
(0010) is set again after the change, both ways. Nothing changes on SQLite.
"""

import importlib

from django.db import migrations

import campaign.fields

lz4 = importlib.import_module("campaign.migrations.0010_state_lz4")
set_lz4 = lz4._set("lz4")


class Migration(migrations.Migration):
    dependencies = [("campaign", "0011_window_status_without_resolving")]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, set_lz4),  # (back: after the type)
        migrations.AlterField(
            model_name="stateversion", name="state", field=campaign.fields.TextJSONField()
        ),
        migrations.RunPython(set_lz4, migrations.RunPython.noop),
    ]

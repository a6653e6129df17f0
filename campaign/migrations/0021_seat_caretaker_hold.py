from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("campaign", "0020_campaign_news_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="caretaker_since",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="caretaker_held",
            field=models.BooleanField(default=False),
        ),
    ]

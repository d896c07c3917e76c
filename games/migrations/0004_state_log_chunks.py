"""The engine log of Konamon! and Marumiere games moves out of the state row into GameLogChunk rows.

Both engines only ever append to ``state["log"]`` (``per_event_log``); with the log in the row, every
move read and rewrote all of it (~98% of a long game's state), so a move cost more the longer the game.
"""

from django.db import migrations, models

# The engines with ``per_event_log`` when this migration was written (not imported: a migration
# must keep doing what it did when the engines change).
CHUNKED_ENGINES = ("konamon", "marumiere")


def logs_to_chunks(apps, schema_editor):
    GameState = apps.get_model("games", "GameState")
    GameLogChunk = apps.get_model("games", "GameLogChunk")
    rows = GameState.objects.filter(game__engine_slug__in=CHUNKED_ENGINES, state__isnull=False)
    for row in rows.iterator(chunk_size=200):
        log = (row.state or {}).get("log") or []
        if not log:
            continue
        GameLogChunk.objects.create(game_id=row.game_id, first_index=row.log_length, events=log)
        row.state = {**row.state, "log": []}
        row.log_length += len(log)
        row.save(update_fields=["state", "log_length"])


def chunks_to_logs(apps, schema_editor):
    GameState = apps.get_model("games", "GameState")
    GameLogChunk = apps.get_model("games", "GameLogChunk")
    rows = GameState.objects.filter(game__engine_slug__in=CHUNKED_ENGINES, state__isnull=False)
    for row in rows.iterator(chunk_size=200):
        chunks = GameLogChunk.objects.filter(game_id=row.game_id).order_by("first_index")
        log = [event for events in chunks.values_list("events", flat=True) for event in events]
        row.state = {**row.state, "log": log + (row.state.get("log") or [])}
        row.log_length = 0
        row.save(update_fields=["state", "log_length"])
    GameLogChunk.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_history_keys_and_player_stats"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamestate",
            name="log_length",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.CreateModel(
            name="GameLogChunk",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("first_index", models.PositiveIntegerField()),
                ("events", models.JSONField()),
                (
                    "game",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=models.deletion.CASCADE,
                        related_name="log_chunks",
                        to="games.game",
                    ),
                ),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("game", "first_index"), name="games_log_chunk_unique")],
            },
        ),
        migrations.RunPython(logs_to_chunks, chunks_to_logs),
    ]

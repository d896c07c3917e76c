from django.apps import AppConfig


class ProfilesConfig(AppConfig):
    # A person's own pages and their API: the public profile and history, the settings, quiet days and absences.
    # They read and change what several apps keep (the history in games, clocks, notification preferences,
    # blocking in together, tokens in trust), so they sit above them all; the user model itself stays in
    # accounts, below the core.
    name = "profiles"

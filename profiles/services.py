"""Writes of a person's settings pages that are not a form's plain save."""

from __future__ import annotations

from accounts.models import TimeZoneSource
from accounts.time_zones import all_zone_names
from games import clock_settings


def set_from_browser(*, user, name: str) -> bool:
    """Give ``user`` the zone their browser reports, unless they chose one (or one was set already); whether it
    was set. Through ``games.clock_settings`` (running clocks are re-read first, as for a change in the settings)."""
    if user.time_zone_source or name not in all_zone_names():
        return False

    def apply(locked) -> None:
        if locked.time_zone_source:  # set meanwhile (another tab, or the settings page)
            return
        locked.time_zone, locked.time_zone_source = name, TimeZoneSource.BROWSER
        locked.save(update_fields=["time_zone", "time_zone_source"])

    locked = clock_settings.change_clock_settings(user=user, apply=apply)
    user.time_zone_source = locked.time_zone_source
    return locked.time_zone == name and locked.time_zone_source == TimeZoneSource.BROWSER

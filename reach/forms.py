"""Forms of the channels' settings page."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from reach import safehttp
from reach.models import DEFAULT_OFF, Channel, EventKind, Webhook
from reach.prefs import EMAIL_SWITCHED


class ChannelGridForm(forms.Form):
    """One checkbox per kind of event and channel: e-mail, push (every browser of the user), each webhook."""

    def __init__(self, *args, user, channel_settings, hooks: list[Webhook], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user, self.channel_settings, self.hooks = user, channel_settings, hooks
        self.rows = []
        for kind in EventKind:
            cells = []
            if kind in EMAIL_SWITCHED:
                cells.append(self._box(f"email_{kind}", channel_settings.wants(Channel.EMAIL, kind), kind,
                                       _("E-mail")))
            elif kind == EventKind.REMINDER:
                cells.append(self._box(f"email_{kind}", user.deadline_reminders, kind, _("E-mail")))
            elif kind == EventKind.TIMEOUT:
                cells.append(_("with deadline reminders"))
            else:
                cells.append(_("as chosen in Settings"))  # "your move" e-mail: notify_mode's choices
            cells.append(self._box(f"push_{kind}", channel_settings.wants(Channel.PUSH, kind), kind, _("Push")))
            for hook in hooks:
                cells.append(self._box(f"hook{hook.pk}_{kind}", kind in (hook.kinds or []), kind, hook.url))
            self.rows.append((kind, cells))

    def _box(self, name: str, initial: bool, kind, channel_label) -> dict:
        self.fields[name] = forms.BooleanField(
            required=False, initial=initial,
            label=_("%(kind)s by %(channel)s") % {"kind": EventKind(kind).label, "channel": channel_label},
        )
        return {"name": name}

    def stored(self) -> dict[str, bool]:
        """Every box as stored now (the API posts these with the ones it changes)."""
        return {name: bool(field.initial) for name, field in self.fields.items()}

    def grid(self) -> list[tuple]:
        """(kind label, [bound field or note]) per row, for the template."""
        return [
            (EventKind(kind).label, [self[c["name"]] if isinstance(c, dict) else c for c in cells])
            for kind, cells in self.rows
        ]

    def save(self) -> None:
        data = self.cleaned_data
        row = self.channel_settings
        off, on = dict(row.off or {}), dict(row.on or {})
        for channel, kinds in ((Channel.EMAIL, EMAIL_SWITCHED), (Channel.PUSH, list(EventKind))):
            ticked = {str(k) for k in kinds if data.get(f"{channel}_{k}")}
            default_off = DEFAULT_OFF.get(channel, frozenset())
            off[channel] = [str(k) for k in kinds if str(k) not in ticked and k not in default_off]
            on[channel] = [str(k) for k in kinds if str(k) in ticked and k in default_off]
        row.off, row.on = off, on
        row.save(update_fields=["off", "on"])
        # Reminders and time-outs by e-mail share the one switch they always had.
        reminders = bool(data.get(f"email_{EventKind.REMINDER}"))
        if reminders != self.user.deadline_reminders:
            self.user.deadline_reminders = reminders
            self.user.save(update_fields=["deadline_reminders"])
        for hook in self.hooks:
            hook.kinds = [str(k) for k in EventKind if data.get(f"hook{hook.pk}_{k}")]
            hook.save(update_fields=["kinds"])


class WebhookForm(forms.Form):
    url = forms.URLField(
        label=_("Webhook URL"), max_length=1000, assume_scheme="https",
        help_text=_("A Discord or Slack incoming webhook, or your own server. It must be reachable on the "
                    "public internet."),
        widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "off"}),
    )

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        try:
            safehttp.check_url(url)
        except safehttp.Refused as exc:
            raise forms.ValidationError(_("This URL cannot be used: only http and https, without a user name "
                                          "or password."), code="refused") from exc
        return url


MAX_WEBHOOKS = 5
MAX_SUBSCRIPTIONS = 20

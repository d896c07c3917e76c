from allauth.account.adapter import DefaultAccountAdapter
from django.utils import translation


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        """New users start in the language they signed up in."""
        user = super().save_user(request, user, form, commit=False)
        user.language = translation.get_language() or "en"
        if commit:
            user.save()
        return user

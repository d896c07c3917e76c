from django import template

register = template.Library()


@register.filter
def lookup(mapping, key):
    """``mapping[key]`` in a template (None when absent)."""
    try:
        return mapping.get(key)
    except AttributeError:
        return None

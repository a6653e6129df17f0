from django import template

from push.services import keys

register = template.Library()


@register.simple_tag
def push_public_key() -> str:
    """The site's VAPID public key, for the browser's ``applicationServerKey``."""
    return keys.public_key()

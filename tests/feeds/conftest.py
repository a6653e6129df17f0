"""The standing people and campaigns of the web tests (``tests.standing``)."""

from tests.standing import *  # noqa: F403

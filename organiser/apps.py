from django.apps import AppConfig


class OrganiserConfig(AppConfig):
    name = "organiser"
    verbose_name = "The organiser's pages: set-up, invitations, the board and its tools"

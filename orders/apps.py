from django.apps import AppConfig


class OrdersConfig(AppConfig):
    name = "orders"
    verbose_name = "Orders"

    def ready(self) -> None:
        # Registered with the Celery app in every process: the resolution queues
        # ``warm_seat_pages`` by name (campaign.services.queue). An import in a function, as
        # Django wants: the tasks import the models, which are not ready before this.
        from orders import tasks  # noqa: F401

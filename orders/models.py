"""Orders models: march, forced march and battle orders, secret until resolution (to come)."""

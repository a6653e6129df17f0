"""Maps models: loaded map files (to come; the map core itself is pure Python in maps/core/)."""

"""Position and move notation: each game's text and JSON forms, parsed and validated."""

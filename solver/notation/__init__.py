"""Position and move notation: each game's text and JSON forms, parsed and validated.

Each game's package keeps one concern to a module. ``text`` reads a position's text
into the JSON form of ``document``, so both forms share one builder, and the builder
ends with ``validation.validate``: a position that parses is one the rules can reach (as
far as the documented checks can tell) and formats back to the same array. ``words``
holds the codecs of single fields, ``moves`` the move text; ``fields`` holds what the
games share.
"""

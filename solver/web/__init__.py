"""`tessera serve`: a local web board to set up, play and analyse positions (docs/web.md).

- ``documents``: what the page gets for a position (its text, JSON, status, moves);
- ``moves``: a move's text split into the fields clicks on the board map to;
- ``realm``: an Azure realm's cells, read from the position, for drawing;
- ``analysis``: live analysis through the engine of `tessera analyze`, one search a tab;
- ``runs``: the games of a self-play run folder (under the allowed directories), replayed;
- ``http``: request bodies read within limits, JSON answers; ``inputs``: each field checked;
- ``guard``: who may drive the board (Host, Origin, content type, token), and defects;
- ``app``: the Starlette application and its JSON API; ``static/``: the page (plain JS, SVG).
"""

from tessera.errors import require_extra

# Starlette, which the board's modules import: without it, one line naming the extra.
require_extra("starlette", "web", "tessera.web (the web board)")

"""Values shared by every game's kernels."""

# ``to_move`` returns a player index (0-based), or one of these.
CHANCE = -1
TERMINAL = -2

# Game ids: word 0 of every state array. Each game's spec (``tessera.games.<game>``) names
# its id from here.
AZUL = 1
PAVILION = 2  # Azul: Summer Pavilion (kernels/pavilion)
AZURE = 3  # Azure, with the Gifted module and the Cosmos expansion (kernels/azure)
TOY = 99  # hidden high card (kernels/toy): a test game for hidden-information search

# The name of each game's kernel package (``tessera.kernels.<name>``), by id.
GAME_NAMES = {AZUL: "azul", PAVILION: "pavilion", AZURE: "azure", TOY: "toy"}

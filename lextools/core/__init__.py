"""The core: editions and their tiles, spelling into tiles, the lexicon files and their readers,
queries over them (search, ranking, budgets). It imports nothing of ``builder``, ``features`` or ``cli``."""

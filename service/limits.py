"""The limits of the challenge route, in one place: the route, the judge page and the OpenAPI document
read them from here.

They are what a word judge needs, and they bound how fast the challenge record can grow: at most
``CHALLENGE_RATE`` rows a second per client, each of at most ``MAX_WORDS`` words of at most
``MAX_WORD_CHARS`` characters.
"""

from __future__ import annotations

from lextools.tokenize import MAX_TILES

#: Words a play can form (the judge box's count is one digit, 1–8).
MAX_WORDS = 8
#: Tiles of the longest word: the board is 15 squares.
MAX_TILES_PER_WORD = MAX_TILES
#: Characters of the longest word as typed: 15 tiles in the widest notation ([CH] is four characters).
MAX_WORD_CHARS = 4 * MAX_TILES
#: Challenges a second per client (a judge at a table needs one every few seconds); app config
#: ``CHALLENGE_RATE`` overrides it.
CHALLENGE_RATE = 10
#: Body bytes of a challenge: 8 words of 60 characters, each \uXXXX-escaped at worst, and the rest.
MAX_BODY = 4096

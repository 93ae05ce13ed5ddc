"""The JSON API under ``/v1``, a module per resource: ``meta`` (health, editions, OpenAPI),
``words`` (validity, check, card, hooks, score), ``search`` (two-tile words, anagrams, pattern
search), ``study_lists`` (the lists that teach), ``quiz``, ``export`` (files and manifests),
``cardboxes`` (kept by sync code); ``walks`` gives searches and lists their turns, and
``hot_routes`` answers the two hot operations of ``words`` in front of Flask.

Each view declares its operation with service/contract and is a thin layer over
:mod:`lextools.features`. It never imports the word judge (service/judge) or the pages (service/pages).
"""

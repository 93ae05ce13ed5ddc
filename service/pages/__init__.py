"""The HTML pages (``views``): the Word Judge, the study page, the search page and the home page,
their Jinja ``templates/`` and ``static/`` scripts, styles and interface strings (package data).
All they know of words they learn from the JSON API over HTTP; they never import the API
(service/api) or the word judge (service/judge).
"""

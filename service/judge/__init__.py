"""The word judge: the challenge route, its record and signed receipts (``challenge``,
``record_access``, ``rulings``), kiosk mode (``kiosk``), and the director's view of the record
(``director``) behind the director token (``director_auth``). It never imports the JSON API
(service/api) or the pages (service/pages); the judge page itself is one of the pages.
"""

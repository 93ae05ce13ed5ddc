"""The service's floor: what every room of it reads of a request and gives to an answer, and nothing
of any one route.

``errors`` (the one JSON error shape and the library errors' statuses), ``client_input`` (path and JSON
body read into checked values), ``guards`` (JSON only, own origin only, the kiosk's edition),
``language`` (the language of an answer), ``hosts`` (the Host names answered), ``limits`` (the
limits and enums), ``lexicons`` (the lexicons a worker has loaded, and hot reload), ``output`` (an
answer's JSON text and added headers), ``html`` (what every HTML page shares) and ``wire`` (what
goes wrong below Flask). It imports no other room of ``service``.
"""

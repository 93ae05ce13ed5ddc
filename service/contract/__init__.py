"""The API's contract, declared once: each operation's route, query schema, request body and
answer schema (``operations``, ``params``, ``schemas``), the checks of query parameter names
against them (``unknown_parameters``) and the OpenAPI document built from the same declarations
(``openapi``). The JSON API (service/api) and the word judge (service/judge) declare their
operations with it; it imports only ``service.http``.
"""

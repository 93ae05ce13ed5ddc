"""Benchmarks and reliability checks (not tests), each run from the repository root as
``python -m bench.NAME``; bench/README.md says what each measures and keeps the figures.

Every check that starts the service does it through :mod:`bench.harness`; every benchmark that
builds a lexicon builds it through ``lextools.builder`` (or the ``lextools build`` command).
"""

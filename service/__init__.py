"""The word-validation service (Flask, served by gunicorn)."""

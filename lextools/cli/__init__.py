"""The ``lextools`` command: a thin layer over the library."""

"""The ``lextools`` command: a thin layer over the library, a module per command group (see ``main``)."""

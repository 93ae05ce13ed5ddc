"""The build: sources and their readers, filter rules, compiling words into a lexicon, the guard
and the lock around writing it, the recipes of the default lexicons. It imports only ``core``."""

"""pbem: a play-by-email server for slow, asynchronous board games."""

__version__ = "0.1.0"

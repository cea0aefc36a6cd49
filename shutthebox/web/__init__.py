"""The browser assistant: ``server.py`` (standard library, loopback) and the page in ``static/``."""

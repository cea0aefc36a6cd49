"""The pages' service worker as served: ``static/sw.js`` with its version and the pages' files written in.

The version is the package's and a digest of the pages' files, so that an upgrade, or any page edited
(``serve`` reads them at start), is a new worker, which replaces what the old one kept. ``serve`` answers
``/sw.js`` with it and ``--export`` writes it; the file as it lies in ``static/`` (another server) keeps
its "unversioned" and asks the network first.
"""

from __future__ import annotations

import hashlib
import json
import os
import re

from .tables import WEB

WORKER = "sw.js"
GAMES = "games.json"  # made by serve and export, kept with the pages
_VERSION = re.compile(r'^const VERSION = "unversioned";$', re.M)
_FILES = re.compile(r"^const FILES = \[\];$", re.M)


def page_files(files) -> list:
    """The pages' files the worker keeps at install, relative to its folder: ``static_files()``'s but itself,
    and ``games.json``."""
    names = {url[1:] for url in files if url not in ("/", "/" + WORKER)}
    return sorted(names | {GAMES})


def version(files) -> str:
    """``0.2.0+`` and 12 hex digits of the SHA-256 of every page file's name and bytes."""
    from .. import __version__

    digest = hashlib.sha256()
    for url, path in sorted(files.items()):
        if url not in ("/", "/" + WORKER):
            with open(path, "rb") as handle:
                digest.update(url.encode() + b"\0" + handle.read() + b"\0")
    return "%s+%s" % (__version__, digest.hexdigest()[:12])


def render(files, folder=WEB) -> bytes:
    """The text of ``sw.js`` for the pages ``files`` (URL path -> file, as ``tables.static_files`` gives)."""
    with open(os.path.join(folder, WORKER), encoding="utf-8") as handle:
        text = handle.read()
    text, versions = _VERSION.subn(lambda _: "const VERSION = %s;" % json.dumps(version(files)), text, count=1)
    text, lists = _FILES.subn(lambda _: "const FILES = %s;" % json.dumps(page_files(files)), text, count=1)
    if versions != 1 or lists != 1:
        raise ValueError("%s has no line 'const VERSION = \"unversioned\";' or 'const FILES = [];' to fill in" % WORKER)
    return text.encode("utf-8")

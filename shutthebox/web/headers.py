"""The headers every answer of ``serve`` carries, its own and the standard library's error pages alike.

The Content-Security-Policy lets the pages load only this server's own files
(scripts, styles, tables) and run only their own inline scripts, named by the
SHA-256 of their text as the files hold it at start (never typed in: a page
edited since is refused by the browser, not silently allowed); nothing may frame
them; no address of the page leaves it in a ``Referer``. Element ``style``
attributes stay allowed (a bar's width), ``<style>`` elements do not.
"""

from __future__ import annotations

import base64
import hashlib
import re

# An inline script: a <script> element without src; its text is hashed exactly as written.
_INLINE = re.compile(r"<script\b(?![^>]*\bsrc\s*=)[^>]*>(.*?)</script\s*>", re.I | re.S)


def inline_hashes(paths) -> list:
    """``'sha256-...'`` of every inline script of the HTML files ``paths``, in order, each once."""
    found = []
    for path in sorted(set(paths)):
        if not path.endswith(".html"):
            continue
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        for script in _INLINE.findall(text):
            digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
            found.append("'sha256-%s'" % digest)
    return list(dict.fromkeys(found))


def policy(paths=()) -> str:
    """The Content-Security-Policy of the pages whose files are ``paths``."""
    scripts = " ".join(["'self'", *inline_hashes(paths)])
    return ("default-src 'self'; script-src %s; style-src 'self'; style-src-attr 'unsafe-inline'; "
            "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'" % scripts)


# Content types of a page's parts, never run as a document: the policy is left off them (not off the service
# worker's script: a worker runs under the policy its script came with). Any other answer carries it.
SUBRESOURCES = ("text/javascript", "text/css", "application/json", "application/manifest+json",
                "application/vnd.msgpack", "application/octet-stream", "image/png")
# Headers a browser reads only from a document's or a worker's answer.
_DOCUMENT_ONLY = ("Content-Security-Policy", "X-Frame-Options")


def subresource_headers(headers) -> tuple:
    """``headers`` without those only a document or a worker reads (a module, a table, JSON)."""
    return tuple(header for header in headers if header[0] not in _DOCUMENT_ONLY)


def security_headers(paths=()) -> tuple:
    """(name, value) pairs for every answer: the policy above, no framing for old browsers, no ``Referer``,
    no guessing of content types."""
    return (("Content-Security-Policy", policy(paths)), ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"))

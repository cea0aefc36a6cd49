"""The pages ask for their modules at once, not one import after another (on a phone each step of a chain of
imports is a round trip): every module a page's script imports is preloaded by its HTML, and the games
page's inline script names, for each game, the modules of ``games/`` that the game's module imports."""

from __future__ import annotations

import os
import re

import pytest

from shutthebox import registry

STATIC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "shutthebox", "web", "static")
IMPORT = re.compile(r'^import\s[^;]*?\sfrom\s+"([^"]+)";', re.M | re.S)


def imported(module, seen=None):
    """Every module ``module`` (a path under static/) imports, directly or not."""
    seen = set() if seen is None else seen
    with open(os.path.join(STATIC, module), encoding="utf-8") as handle:
        text = handle.read()
    for target in IMPORT.findall(text):
        path = os.path.normpath(os.path.join(os.path.dirname(module), target)).replace(os.sep, "/")
        if path not in seen:
            seen.add(path)
            imported(path, seen)
    return seen


def html(page):
    with open(os.path.join(STATIC, page), encoding="utf-8") as handle:
        return handle.read()


def preloaded(page):
    return set(re.findall(r'<link rel="modulepreload" href="([^"]+)">', html(page)))


@pytest.mark.parametrize("page, script", [("index.html", "app.js"), ("games.html", "games.js")])
def test_every_module_a_page_imports_is_preloaded(page, script):
    assert imported(script) | {script} <= preloaded(page)


def test_the_games_page_names_each_games_modules():
    listed = {game: set(names.split('", "')) - {""} for game, names in re.findall(
        r'^\s*([a-z0-9-]+): \["([^\]]*)"\]', html("games.html"), re.M)}
    games = [game for game in registry.GAMES if registry.declaration(game).page == "games/%s.js" % game]
    assert games and sorted(listed) == sorted(games)
    for game in games:
        own = {path[len("games/"):-len(".js")] for path in imported("games/%s.js" % game)
               if path.startswith("games/") and path not in preloaded("games.html")}
        assert listed[game] == own, game

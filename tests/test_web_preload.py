"""The pages ask for their modules at once, not one import after another (on a phone each step of a chain of
imports is a round trip): every module a page's script imports is preloaded by its HTML, and the games
page's inline script names, for each game, the modules of ``games/`` that the game's module imports, and for a
link to Play those its Play imports (``import("./GAME-play.js")``, loaded after Coach's first answer)."""

from __future__ import annotations

import os
import re

import pytest

from shutthebox import registry

STATIC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "shutthebox", "web", "static")
IMPORT = re.compile(r'^import\s[^;]*?\sfrom\s+"([^"]+)";', re.M | re.S)
PLAY_IMPORT = re.compile(r'import\("(\./[a-z0-9-]+-play\.js)"\)')


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


def listed(name):
    """The inline script's lists ``name`` (``imports``, ``plays``): game -> the modules of games/ it names."""
    block = re.search(r"var %s = \{(.*?)\};" % name, html("games.html"), re.S).group(1)
    return {game: set(names.split('", "')) - {""} for game, names in re.findall(r'^\s*([a-z0-9-]+): \["([^\]]*)"\]', block, re.M)}


@pytest.mark.parametrize("page, script", [("index.html", "app.js"), ("games.html", "games.js")])
def test_every_module_a_page_imports_is_preloaded(page, script):
    assert imported(script) | {script} <= preloaded(page)


def test_the_games_page_names_each_games_modules():
    imports = listed("imports")
    games = [game for game in registry.GAMES if registry.declaration(game).page == "games/%s.js" % game]
    assert games and sorted(imports) == sorted(games)
    for game in games:
        own = {path[len("games/"):-len(".js")] for path in imported("games/%s.js" % game)
               if path.startswith("games/") and path not in preloaded("games.html")}
        assert imports[game] == own, game


def test_a_link_to_play_preloads_what_play_imports():
    plays = listed("plays")
    games = [game for game in registry.GAMES if registry.declaration(game).page == "games/%s.js" % game]
    assert sorted(plays) == sorted(games)
    extra = {"lib/play.js", "lib/random.js"}  # what the script adds for every link to Play
    for game in games:
        coach = imported("games/%s.js" % game) | {"games/%s.js" % game}
        play = set()
        for module in coach:
            with open(os.path.join(STATIC, module), encoding="utf-8") as handle:
                for target in PLAY_IMPORT.findall(handle.read()):
                    path = os.path.normpath(os.path.join(os.path.dirname(module), target)).replace(os.sep, "/")
                    play |= {path} | imported(path)
        needed = play - coach - preloaded("games.html")
        assert play and {path for path in needed if not path.startswith("games/")} <= extra, game
        assert plays[game] == {path[len("games/"):-len(".js")] for path in needed if path.startswith("games/")}, game

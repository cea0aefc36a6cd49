"""A cache folder ($SHUTTHEBOX_CACHE) a table solved on first use could not be kept in, or that is not safe, is
refused before the solve starts (engine/store.py ``check_cache_folder``), never after it: read-only, not a
folder, not to be made, another user's, writable by others. Each is refused with exit status 3 in one line
naming the folder, the solve never called."""

import os

import pytest

from conftest import run
from shutthebox.engine import store
from shutthebox.errors import TableError

ROOT_USER = hasattr(os, "geteuid") and os.geteuid() == 0


def refused_before_solving(folder, monkeypatch) -> str:
    """The message refusing ``folder`` as the cache, the solver never called."""
    monkeypatch.setenv(store.CACHE_ENV, str(folder))
    solved = []

    def build():
        solved.append(True)
        return b""

    with pytest.raises(TableError) as refused:
        store.open_table("toggle-c5-s4.msgpack", expect={"game": "toggle"}, build=build)
    assert not solved
    assert str(folder) in str(refused.value)
    return str(refused.value)


def test_a_cache_that_is_a_file_is_refused_before_solving(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.write_text("not a folder")
    assert "is not a folder" in refused_before_solving(folder, monkeypatch)


def test_a_cache_that_cannot_be_made_is_refused_before_solving(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    message = refused_before_solving(tmp_path / "file" / "cache", monkeypatch)
    assert "cannot be made" in message and "not a folder" in message


@pytest.mark.skipif(ROOT_USER, reason="root writes into a read-only folder all the same")
def test_a_read_only_cache_is_refused_before_solving(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert "is not writable" in refused_before_solving(folder, monkeypatch)
        parent = tmp_path / "locked"
        parent.mkdir()
        parent.chmod(0o500)
        assert "cannot be made" in refused_before_solving(parent / "cache", monkeypatch)
    finally:
        folder.chmod(0o700)
        if (tmp_path / "locked").exists():
            (tmp_path / "locked").chmod(0o700)


def test_a_cache_of_another_user_is_refused_as_such_before_solving(tmp_path, monkeypatch):
    if not ROOT_USER:
        pytest.skip("making a folder of another user needs root")
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    try:
        os.chown(folder, 65534, 65534)
    except OSError as error:
        pytest.skip("cannot give a folder to another user here (%s)" % error)
    message = refused_before_solving(folder, monkeypatch)
    assert "belongs to another user (uid 65534)" in message and "other users" not in message


def test_a_cache_others_can_write_is_refused_before_solving(tmp_path, monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(0o777)
    assert "can be written by other users" in refused_before_solving(folder, monkeypatch)


def test_the_command_refuses_such_a_cache_before_it_announces_a_solve(tmp_path):
    """yazy's target table (not shipped) would be solved, its cost said first: neither happens."""
    folder = tmp_path / "cache"
    folder.write_text("not a folder")
    done = run("yazy", "--target", "200", "--expect", env={store.CACHE_ENV: str(folder)})
    assert done.returncode == 3 and done.stdout == "", done.stderr
    assert done.stderr.count("\n") == 1 and "solving" not in done.stderr, done.stderr
    assert done.stderr.startswith("ShutTheBox: cannot solve table yazy-target.msgpack: cache folder %s is not a "
                                  "folder" % folder), done.stderr

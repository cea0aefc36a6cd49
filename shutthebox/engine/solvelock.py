"""One solve of a table on first use, however many processes ask for it (build time): a lock file next to
the cache file, held with ``flock`` by the process that solves; the others wait, then read what it wrote."""

import os
import sys

LOCK_SUFFIX = ".lock"  # the lock file next to the cache file: toggle-c5-s3.msgpack.lock
SAY_WAITING_AFTER = 1.0  # seconds waited for another process's solve before saying so


def lock(cached: str) -> int | None:
    """Wait until no other process is solving ``cached``, then hold its lock: the descriptor of the lock
    file, locked with ``flock``, which the kernel releases when its holder dies (so a killed solve blocks
    nobody, and a lock file it left behind is only a file). None where there is no ``flock`` or no lock
    file can be made: the table is solved unlocked, as it was before (at worst solved twice)."""
    try:
        import fcntl
    except ImportError:
        return None
    import time

    path, started, said = cached + LOCK_SUFFIX, time.monotonic(), False
    while True:
        try:
            os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
            held = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileNotFoundError:  # the folder was removed by a refused solve between the two calls
            continue
        except OSError:
            return None
        try:
            while True:
                try:
                    fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() - started < SAY_WAITING_AFTER:
                        time.sleep(0.05)
                        continue
                if not said and sys.stderr is not None:
                    sys.stderr.write("ShutTheBox: waiting for another process solving %s (Ctrl-C stops waiting)\n"
                                     % os.path.basename(cached))
                    sys.stderr.flush()
                    said = True
                fcntl.flock(held, fcntl.LOCK_EX)  # Ctrl-C interrupts it: KeyboardInterrupt, exit status 130
                break
            try:  # the solver before removes the file while it holds it: a lock on a removed file guards nothing
                if os.path.samestat(os.fstat(held), os.stat(path, follow_symlinks=False)):
                    return held
            except FileNotFoundError:
                pass
        except BaseException:
            os.close(held)
            raise
        os.close(held)


def unlock(cached: str, held: int | None, made: bool) -> None:
    """Release the lock of ``cached``, removing its file first (whoever waits on it then takes a new one),
    and the cache folder if the lock made it and no table was written (a refused or failed solve)."""
    if held is None:
        return
    try:
        os.unlink(cached + LOCK_SUFFIX)
    except OSError:
        pass
    os.close(held)
    if made:
        try:
            os.rmdir(os.path.dirname(cached))
        except OSError:  # not empty: the table is there
            pass


def drop_stale(cached: str) -> None:
    """Remove the lock file of ``cached`` when no process holds it: one left by a solve that was killed (the
    server's Cancel), which would block nobody but litters the cache."""
    try:
        import fcntl
    except ImportError:
        return
    path = cached + LOCK_SUFFIX
    try:
        held = os.open(path, os.O_RDWR | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return
    try:  # a process that opened it meanwhile finds it removed once it holds it, and takes a new one
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if os.path.samestat(os.fstat(held), os.stat(path, follow_symlinks=False)):
            os.unlink(path)
    except OSError:
        pass
    finally:
        os.close(held)

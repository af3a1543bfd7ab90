"""The cache's key is trusted only where no one else could have read or written it: with HOME
empty or `/`, the cache fell back to a folder under the temporary folder that nothing checked,
and a 0777 folder holding a 0666 key of known bytes had its sealed pickles unpickled and a
forged module compiled ahead of time loaded. Checked here in process, in a temporary folder of
the test's own: the folder and the key are refused as ssh refuses a key others can read."""

from __future__ import annotations

import os
import stat
import tempfile

import pytest

from nqueens_cp.run import aot, compiled

KNOWN = bytes(range(32))  # the bytes an attacker wrote into the key


@pytest.fixture
def fallback(tmp_path, monkeypatch):
    """No usable home: the cache's folder is the temporary folder's, here the test's own."""
    monkeypatch.setenv("HOME", "")
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(compiled, "_KEY", [])
    return tmp_path / f"nqueens_cp-{os.getuid()}"


def _fresh_key() -> bytes:
    compiled._KEY.clear()
    return compiled._key()


def _plant(base, folder_mode: int, key_mode: int):
    (base / "nqueens_cp").mkdir(parents=True)
    key = base / "nqueens_cp" / "cache-key"
    key.write_bytes(KNOWN)
    base.chmod(folder_mode)
    key.chmod(key_mode)
    return key


def test_the_fallback_folder_is_made_private_before_anything_is_written(fallback):
    root = os.path.dirname(compiled.cache_dir())
    assert root == str(fallback / "nqueens_cp")
    assert stat.S_IMODE(fallback.stat().st_mode) == 0o700
    key = _fresh_key()
    path = fallback / "nqueens_cp" / "cache-key"
    assert compiled.distrusted() is None and path.read_bytes() == key
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert _fresh_key() == key  # the next run reads the same key: its cache files hold


@pytest.mark.parametrize(
    "folder_mode, key_mode, says",
    [
        (0o777, 0o666, "can be read or written by others (mode 0777)"),
        (0o700, 0o644, "cache key"),
        (0o755, 0o600, "can be read or written by others (mode 0755)"),
    ],
)
def test_a_planted_folder_or_a_key_others_can_read_is_refused(fallback, folder_mode, key_mode, says):
    _plant(fallback, folder_mode, key_mode)
    assert says in (compiled.distrusted() or "")
    assert _fresh_key() != KNOWN  # so nothing sealed with the known bytes holds


@pytest.mark.skipif(os.getuid() != 0, reason="giving a folder to another user needs root")
def test_a_folder_of_another_user_is_refused(fallback):
    _plant(fallback, 0o700, 0o600)
    os.chown(fallback, 65534, 65534)
    assert "belongs to another user (uid 65534)" in (compiled.distrusted() or "")
    assert _fresh_key() != KNOWN


def test_a_module_sealed_with_a_planted_key_is_never_loaded(fallback, tmp_path):
    """The forged module's seal is right for the known key: `aot` refuses it all the same."""
    _plant(fallback, 0o777, 0o666)
    module = tmp_path / "forged.so"
    module.write_bytes(b"\x7fELF forged")
    compiled._KEY[:] = [KNOWN]  # the seal the attacker can make
    (tmp_path / "forged.so.seal").write_bytes(compiled.mac(module.read_bytes(), "aot", module.name))
    assert aot._sealed(str(module), module.read_bytes())
    compiled._KEY.clear()
    assert not aot._sealed(str(module), module.read_bytes())


@pytest.mark.parametrize("short", [b"", b"\x01" * 7])
def test_an_empty_or_short_key_is_made_again_once(fallback, short):
    """It stayed, and every run took a key of its own: every run compiled its kernels again."""
    fallback.mkdir(mode=0o700)
    (fallback / "nqueens_cp").mkdir(mode=0o700)
    path = fallback / "nqueens_cp" / "cache-key"
    path.write_bytes(short)
    path.chmod(0o600)
    key = _fresh_key()
    assert path.read_bytes() == key and len(key) == 32
    assert _fresh_key() == key

"""``bench/server_games.py`` (games played through the lifecycle, as in production) as a
module for the tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SERVER_GAMES = Path(__file__).resolve().parents[2] / "bench" / "server_games.py"


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


server_games = _load(SERVER_GAMES)

"""The games' own outputs are byte for byte those of ``bench/golden-manifest.txt``.

Every menu, sentence, text view and picture of a fixed set of games (``bench/golden.py``,
its engine part) hashes as recorded.  A change that means to alter one of them rewrites
the manifest (``python bench/golden.py --write``) in the same commit and says why; the
mails and the archive are checked by running the script itself.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "golden.py"


def _golden():
    spec = importlib.util.spec_from_file_location("golden", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


golden = _golden()


@pytest.mark.parametrize("config", golden.CONFIGS, ids=lambda c: c.key)
def test_the_engine_outputs_are_as_recorded(config):
    recorded = golden.read_manifest()
    found = {f"engine/{config.key}/{name}": hashlib.sha256(text.encode()).hexdigest()
             for name, text in golden.engine_outputs(config)}
    assert golden.differences(recorded, found, f"engine/{config.key}/") == []

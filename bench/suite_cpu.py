"""The suite's CPU time per test, for making it faster on a shared machine.

Wall time (``--durations``) measures the other sessions on the machine as much as the
test, and freezegun makes some tests' clocks stand still; this pytest plugin records the
CPU time of this process (``time.process_time``, which freezegun does not patch) for each
test's setup, call and teardown, in every pytest-xdist worker, and prints at the end the
40 dearest tests, the total per file and the total of all.  What a test spends in other
processes (chromium, a server it started) is not counted: its wall time is shown beside.

    PYTHONPATH=$PWD .venv/bin/python -m pytest -p bench.suite_cpu -n 2 --dist worksteal
    PYTHONPATH=$PWD .venv/bin/python -m pytest -p bench.suite_cpu --suite-cpu-json=cpu.json

``--suite-cpu-top N`` prints N tests instead of 40; ``--suite-cpu-json FILE`` writes every
test's figures as JSON, to compare two runs; ``--suite-cpu-longest tests/longest.txt``
lists the tests of at least 5 s of wall time (``--suite-cpu-longest-seconds``), which
``tests/conftest.py`` hands out first.
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict

import pytest

#: the clocks as they are now, before freezegun may patch module attributes that name
#: them (it looks through modules' globals, not into a tuple)
_CLOCKS = (time.process_time, time.perf_counter)
#: test id -> [cpu seconds, wall seconds, worker]
_RECORDS: dict[str, list] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("suite-cpu")
    group.addoption("--suite-cpu-top", type=int, default=40,
                    help="how many of the dearest tests to print (default 40)")
    group.addoption("--suite-cpu-json", default=None,
                    help="write every test's CPU and wall seconds to this JSON file")
    group.addoption("--suite-cpu-longest", default=None, metavar="FILE",
                    help="write the tests of at least --suite-cpu-longest-seconds of wall "
                         "time, longest first, to FILE (tests/longest.txt: the order "
                         "tests/conftest.py hands them out in)")
    group.addoption("--suite-cpu-longest-seconds", type=float, default=5.0,
                    help="how long a test --suite-cpu-longest lists took at least (default 5)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    process_time, perf_counter = _CLOCKS
    cpu, wall = process_time(), perf_counter()
    yield
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _RECORDS[item.nodeid] = [process_time() - cpu, perf_counter() - wall, worker]


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the records to the controller
        workeroutput["suite_cpu"] = json.dumps(_RECORDS)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    records = getattr(node, "workeroutput", {}).get("suite_cpu")
    if records:
        _RECORDS.update(json.loads(records))


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if getattr(config, "workeroutput", None) is not None or not _RECORDS:
        return
    write = terminalreporter.write_line
    top = config.getoption("--suite-cpu-top")
    ranked = sorted(_RECORDS.items(), key=lambda kv: -kv[1][0])
    terminalreporter.section(f"CPU seconds per test (the {top} dearest)")
    for nodeid, (cpu, wall, worker) in ranked[:top]:
        write(f"{cpu:8.2f} cpu {wall:8.2f} wall  {worker:5}  {nodeid}")
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    workers: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for nodeid, (cpu, wall, worker) in _RECORDS.items():
        total = files[nodeid.split("::")[0]]
        total[0] += cpu
        total[1] += wall
        total[2] += 1
        workers[worker][0] += cpu
        workers[worker][1] += wall
    terminalreporter.section("CPU seconds per file")
    for path, (cpu, wall, count) in sorted(files.items(), key=lambda kv: -kv[1][0]):
        write(f"{cpu:8.2f} cpu {wall:8.2f} wall {count:5} tests  {path}")
    terminalreporter.section("CPU seconds per worker")
    for worker, (cpu, wall) in sorted(workers.items()):
        write(f"{worker:5} {cpu:8.2f} cpu {wall:8.2f} wall")
    cpu = sum(r[0] for r in _RECORDS.values())
    wall = sum(r[1] for r in _RECORDS.values())
    write(f"all   {cpu:8.2f} cpu {wall:8.2f} wall in {len(_RECORDS)} tests")
    path = config.getoption("--suite-cpu-json")
    if path:
        with open(path, "w", encoding="utf-8") as out:
            json.dump(_RECORDS, out, indent=0, sort_keys=True)
    path = config.getoption("--suite-cpu-longest")
    if path:
        write_longest(path, config.getoption("--suite-cpu-longest-seconds"))


#: what heads tests/longest.txt (the date and the machine are the writer's to add)
LONGEST_HEADER = """\
# The suite's longest tests, longest first: wall seconds each took in the whole suite
# (pytest-xdist, 2 workers; bench/suite_cpu.py --suite-cpu-longest writes this file).
# tests/conftest.py hands them out first, so that no worker is left running one of them
# while the other has nothing more to do.  Only their order matters here: a test
# missing from the list, or one listed that no longer exists, changes no result.
"""


def write_longest(path: str, least: float) -> None:
    longest = sorted(((wall, nodeid) for nodeid, (_cpu, wall, _worker) in _RECORDS.items()
                      if wall >= least), reverse=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(LONGEST_HEADER)
        out.writelines(f"{wall:6.1f}  {nodeid}\n" for wall, nodeid in longest)

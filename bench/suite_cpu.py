"""The suite's CPU time per test, for making it faster on a shared machine.

Wall time (``--durations``) measures the other sessions on the machine as much as the
test, and freezegun makes some tests' clocks stand still; this pytest plugin records the
CPU time of this process (``time.process_time``, which freezegun does not patch) for each
test's setup, call and teardown, in every pytest-xdist worker, and prints at the end the
40 dearest tests, the total per file and the total of all.  What a test spends in other
processes (chromium, a server it started) is not counted in its figure: its wall time is
shown beside, and the CPU of the processes it started that have ended (and been waited
for: a server stopped, not chromium, which ends with the worker) in a column of its own.
It also prints the CPU each fixture's setup took itself (not the fixtures it asks for),
summed over the tests that set it up, to show which setup is worth sharing, and the CPU
the garbage collector took in each test process (counted in the tests' figures too).

    PYTHONPATH=$PWD .venv/bin/python -m pytest -p bench.suite_cpu -n 2 --dist worksteal
    PYTHONPATH=$PWD .venv/bin/python -m pytest -p bench.suite_cpu --suite-cpu-json=cpu.json

``--suite-cpu-top N`` prints N tests instead of 40; ``--suite-cpu-json FILE`` writes every
test's figures as JSON, to compare two runs; ``--suite-cpu-longest tests/longest.txt``
lists the tests of at least 5 s of wall time (``--suite-cpu-longest-seconds``), which
``tests/conftest.py`` hands out first.
"""

from __future__ import annotations

import gc
import json
import os
import resource
import time
from collections import defaultdict

import pytest

#: the clocks as they are now, before freezegun may patch module attributes that name
#: them (it looks through modules' globals, not into a tuple)
_CLOCKS = (time.process_time, time.perf_counter)
#: test id -> [cpu seconds, wall seconds, worker, cpu seconds of its ended child processes]
_RECORDS: dict[str, list] = {}
#: an xdist worker's id -> its ``_GC`` (in the controller)
_WORKERS_GC: dict[str, dict[str, list[float]]] = {}
#: fixture name -> [cpu seconds of its setups themselves, setups]
_FIXTURES: dict[str, list] = defaultdict(lambda: [0.0, 0])


#: the garbage collector's CPU seconds in this process, per generation, and its runs
_GC: dict[str, list[float]] = {"cpu": [0.0, 0.0, 0.0], "runs": [0, 0, 0]}
_gc_started: list[float] = []


def _collecting(phase: str, info: dict) -> None:
    if phase == "start":
        _gc_started[:] = [_CLOCKS[0]()]
    elif _gc_started:
        _GC["cpu"][info["generation"]] += _CLOCKS[0]() - _gc_started[0]
        _GC["runs"][info["generation"]] += 1


gc.callbacks.append(_collecting)


def _children_cpu() -> float:
    """CPU seconds of this process's children that have ended and been waited for (and of
    their own such children)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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
    cpu, wall, children = process_time(), perf_counter(), _children_cpu()
    yield
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    _RECORDS[item.nodeid] = [process_time() - cpu, perf_counter() - wall, worker,
                             _children_cpu() - children]


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef, request: pytest.FixtureRequest):
    # pytest has set up the fixtures this one asks for before this hook: what is measured
    # here is this fixture's own setup
    process_time = _CLOCKS[0]
    cpu = process_time()
    yield
    spent = _FIXTURES[fixturedef.argname]
    spent[0] += process_time() - cpu
    spent[1] += 1


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker: hand the records to the controller
        workeroutput["suite_cpu"] = json.dumps(_RECORDS)
        workeroutput["suite_cpu_fixtures"] = json.dumps(_FIXTURES)
        workeroutput["suite_cpu_gc"] = json.dumps(_GC)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:
    records = getattr(node, "workeroutput", {}).get("suite_cpu")
    if records:
        _RECORDS.update(json.loads(records))
    output = getattr(node, "workeroutput", {})
    for name, (cpu, count) in json.loads(output.get("suite_cpu_fixtures", "{}")).items():
        _FIXTURES[name][0] += cpu
        _FIXTURES[name][1] += count
    if "suite_cpu_gc" in output:
        _WORKERS_GC[node.gateway.id] = json.loads(output["suite_cpu_gc"])


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if getattr(config, "workeroutput", None) is not None or not _RECORDS:
        return
    write = terminalreporter.write_line
    top = config.getoption("--suite-cpu-top")
    ranked = sorted(_RECORDS.items(), key=lambda kv: -kv[1][0])
    terminalreporter.section(f"CPU seconds per test (the {top} dearest)")
    for nodeid, (cpu, wall, worker, *_children) in ranked[:top]:
        write(f"{cpu:8.2f} cpu {wall:8.2f} wall  {worker:5}  {nodeid}")
    files: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0, 0.0])
    workers: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for nodeid, (cpu, wall, worker, *children) in _RECORDS.items():
        total = files[nodeid.split("::")[0]]
        total[0] += cpu
        total[1] += wall
        total[2] += 1
        total[3] += sum(children)
        workers[worker][0] += cpu
        workers[worker][1] += wall
        workers[worker][2] += sum(children)
    terminalreporter.section("CPU seconds per file (children: its ended processes')")
    for path, (cpu, wall, count, children) in sorted(files.items(), key=lambda kv: -kv[1][0]):
        write(f"{cpu:8.2f} cpu {wall:8.2f} wall {children:7.2f} children {count:5} tests  "
              f"{path}")
    terminalreporter.section(f"CPU seconds of fixtures' own setups (the {top} dearest)")
    for name, (cpu, count) in sorted(_FIXTURES.items(), key=lambda kv: -kv[1][0])[:top]:
        write(f"{cpu:8.2f} cpu {count:6} setups  {name}")
    terminalreporter.section("CPU seconds per worker (gc: the garbage collector's part, "
                             "generations 0, 1, 2 and its runs)")
    collected = _WORKERS_GC or {"main": _GC}
    for worker, (cpu, wall, children) in sorted(workers.items()):
        taken = collected.get(worker, {"cpu": [0.0] * 3, "runs": [0] * 3})
        write(f"{worker:5} {cpu:8.2f} cpu {wall:8.2f} wall {children:7.2f} children "
              f"{sum(taken['cpu']):6.2f} gc (" + ", ".join(
                  f"{c:.2f} s/{n}" for c, n in zip(taken["cpu"], taken["runs"], strict=True))
              + ")")
    cpu = sum(r[0] for r in _RECORDS.values())
    wall = sum(r[1] for r in _RECORDS.values())
    children = sum(sum(r[3:]) for r in _RECORDS.values())
    write(f"all   {cpu:8.2f} cpu {wall:8.2f} wall {children:7.2f} children "
          f"in {len(_RECORDS)} tests")
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
    longest = sorted(((record[1], nodeid) for nodeid, record in _RECORDS.items()
                      if record[1] >= least), reverse=True)
    with open(path, "w", encoding="utf-8") as out:
        out.write(LONGEST_HEADER)
        out.writelines(f"{wall:6.1f}  {nodeid}\n" for wall, nodeid in longest)

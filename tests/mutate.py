"""A sampled mutation test: plant small faults in one module, one at a time, and see
whether its tests notice.

    .venv/bin/python tests/mutate.py pbem/time/clock.py tests/time -n 60 --seed 1

For each of up to ``-n`` mutants (a random sample, reproducible with ``--seed``) it
writes the mutated module into a copy of the working tree, runs the given tests
there (``pytest -x``), and counts the mutant *killed* when they fail. It prints the
score and every surviving mutant (file:line, the change): each survivor is a change
no test noticed, either one a user could notice (a test is missing) or one that
changes nothing (an equivalent mutant).

The kinds of mutant: a comparison flipped (``<`` to ``<=``, ``==`` to ``!=``, ``in``
to ``not in``...), ``and``/``or`` swapped, a condition negated or a ``not`` dropped,
an integer off by one, ``True``/``False`` swapped, ``+``/``-`` and ``*``/``/``
swapped, ``min``/``max`` swapped, ``break``/``continue`` swapped, a value left out
of an f-string, a statement dropped (``pass``), a returned value dropped
(``return None``). Docstrings, annotations, a bare ``...`` (a Protocol method's
body) and ``raise AssertionError(...)`` (a guard of the unreachable) are left alone,
and so is ``return False`` (or another falsy constant), whose ``return None`` no
caller can tell apart.

The working tree is never touched: the tracked and untracked (not ignored) files are
copied into a temporary folder per worker, and the tests run there with this
Python (the project's ``.venv``; its editable install of pbem yields to the copy,
which comes first on ``sys.path``). ``PBEM_TEST_DATABASE_URL`` is left out unless
``--postgres`` is given, so each mutant runs the SQLite half of the tests only.
This script is not a test (pytest does not collect it) and not part of CI.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_FLIP_COMPARE: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
    ast.In: ast.NotIn, ast.NotIn: ast.In,
}
_SWAP_BINOP: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv,
}
_SYMBOL = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in", ast.Add: "+",
    ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
}
#: statements whose removal is a mutant ("drop a statement")
_DROPPABLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Raise, ast.Delete,
              ast.If, ast.For, ast.With, ast.Try)


@dataclass(frozen=True)
class Mutant:
    index: int  # the n-th mutation site of the module, in a fixed walk order
    line: int
    kind: str
    before: str
    after: str

    def describe(self, path: str) -> str:
        return f"{path}:{self.line}: {self.kind}: {self.before}  ->  {self.after}"


def _is_docstring(node: ast.AST) -> bool:
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str))


def _is_ellipsis(node: ast.AST) -> bool:
    """``...`` as a statement (the body of a Protocol's method): dropping it changes nothing."""
    return (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and node.value.value is Ellipsis)


def _unreachable(stmt: ast.stmt) -> bool:
    """``raise AssertionError(...)``: a guard of what cannot happen, not behaviour."""
    return (isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call)
            and isinstance(stmt.exc.func, ast.Name) and stmt.exc.func.id == "AssertionError")


def _short(text: str, limit: int = 90) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[:limit - 3] + "..."


class _Sites:
    """Walks a module in a fixed order and yields every place a mutant can be made, as
    (node, kind, make): ``make()`` changes the node (or its parent's list) in place."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree

    def __iter__(self) -> Iterator[tuple[ast.AST, str, object]]:
        yield from self._visit(self.tree, in_annotation=False)

    def _visit(self, node: ast.AST, in_annotation: bool) -> Iterator[tuple]:
        if not in_annotation:
            yield from self._sites_of(node)
        for name, value in ast.iter_fields(node):
            annotation = in_annotation or name in ("annotation", "returns")
            if isinstance(value, list):
                if value and all(isinstance(v, ast.stmt) for v in value):
                    yield from self._statements(node, name, value, annotation)
                for item in list(value):
                    if isinstance(item, ast.AST):
                        yield from self._visit(item, annotation)
            elif isinstance(value, ast.AST):
                yield from self._visit(value, annotation)

    def _statements(self, parent: ast.AST, field: str, body: list[ast.stmt],
                    in_annotation: bool) -> Iterator[tuple]:
        if in_annotation:
            return
        for i, stmt in enumerate(body):
            if i == 0 and _is_docstring(stmt):
                continue
            if isinstance(stmt, _DROPPABLE) and not _unreachable(stmt) \
                    and not _is_ellipsis(stmt):
                def drop(body=body, i=i, stmt=stmt):
                    body[i] = ast.copy_location(ast.Pass(), stmt)
                yield stmt, "drop a statement", drop

    def _sites_of(self, node: ast.AST) -> Iterator[tuple]:
        if isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in _FLIP_COMPARE:
                    def flip(node=node, i=i, op=op):
                        node.ops[i] = _FLIP_COMPARE[type(op)]()
                    yield node, f"'{_SYMBOL[type(op)]}' flipped", flip
        elif isinstance(node, ast.BoolOp):
            def swap(node=node):
                node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            yield node, "'and'/'or' swapped", swap
        elif isinstance(node, ast.BinOp) and type(node.op) in _SWAP_BINOP:
            if not _is_text(node):
                def arith(node=node):
                    node.op = _SWAP_BINOP[type(node.op)]()
                yield node, f"'{_SYMBOL[type(node.op)]}' swapped", arith
        elif isinstance(node, ast.AugAssign) and type(node.op) in (ast.Add, ast.Sub):
            def aug(node=node):
                node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
            yield node, "'+='/'-=' swapped", aug
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            def unnot(node=node):
                node.dropped = True  # _Unwrap replaces the node by its operand
            yield node, "'not' dropped", unnot
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                def boolean(node=node):
                    node.value = not node.value
                yield node, "True/False swapped", boolean
            elif isinstance(node.value, int):
                def plus(node=node):
                    node.value += 1
                yield node, "off by one (+1)", plus
                if node.value != 0:
                    def minus(node=node):
                        node.value -= 1
                    yield node, "off by one (-1)", minus
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("min", "max"):
            def minmax(node=node):
                node.func.id = "max" if node.func.id == "min" else "min"
            yield node, "min/max swapped", minmax
        elif isinstance(node, ast.Break | ast.Continue):
            def loop(node=node):
                node.__class__ = ast.Continue if isinstance(node, ast.Break) else ast.Break
            yield node, "break/continue swapped", loop
        elif isinstance(node, ast.Return) and node.value is not None and not (
                isinstance(node.value, ast.Constant) and not node.value.value):
            # (``return False`` to ``return None`` changes nothing a caller can test:
            # "True/False swapped" is that return's mutant)
            def drop_value(node=node):
                node.value = None
            yield node, "returned value dropped", drop_value
        elif isinstance(node, ast.JoinedStr):
            for i, part in enumerate(node.values):
                if isinstance(part, ast.FormattedValue):
                    def unformat(node=node, i=i):
                        del node.values[i]
                    yield node, "a value left out of an f-string", unformat
        if isinstance(node, ast.If | ast.While | ast.IfExp):
            def negate(node=node):
                node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
            yield node.test, "condition negated", negate


class _Unwrap(ast.NodeTransformer):
    """Replaces a ``not x`` marked ``dropped`` by ``x``."""

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:  # noqa: N802 - NodeVisitor's name
        self.generic_visit(node)
        return node.operand if getattr(node, "dropped", False) else node


def _is_text(node: ast.BinOp) -> bool:
    """``"a" + "b"`` or ``"%s" % x``: string building, not arithmetic."""
    sides = (node.left, node.right)
    return any(isinstance(s, ast.Constant) and isinstance(s.value, str) or
               isinstance(s, ast.JoinedStr) for s in sides)


def _site(source: str, index: int) -> tuple[ast.Module, ast.AST, str, object]:
    """The ``index``-th mutation site, in a fresh tree of its own (making a mutant
    changes the tree, and the walk must see every site unchanged)."""
    tree = ast.parse(source)
    for n, (node, kind, make) in enumerate(_Sites(tree)):
        if n == index:
            return tree, node, kind, make
    raise ValueError(f"no mutation site {index}")


def mutants_of(source: str) -> list[Mutant]:
    found = []
    count = sum(1 for _ in _Sites(ast.parse(source)))
    for index in range(count):
        _tree, node, kind, make = _site(source, index)
        before = ast.get_source_segment(source, node) or ast.unparse(node)
        make()
        if kind == "drop a statement":
            after = "pass"
        elif kind == "condition negated":
            after = f"not ({before})"
        else:
            after = ast.unparse(_Unwrap().visit(node))
        found.append(Mutant(index, getattr(node, "lineno", 0), kind, _short(before),
                            _short(after)))
    return found


def mutated_source(source: str, mutant: Mutant) -> str:
    tree, _node, _kind, make = _site(source, mutant.index)
    make()
    tree = ast.fix_missing_locations(_Unwrap().visit(tree))
    return ast.unparse(tree) + "\n"


# -- running -------------------------------------------------------------------------


def copy_tree(dest: Path) -> None:
    """The working tree as it is now (tracked and untracked files, not ignored ones)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                            check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


def _env(postgres: bool) -> dict[str, str]:
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")  # a stale .pyc must not hide a mutant
    if not postgres:
        env.pop("PBEM_TEST_DATABASE_URL", None)
    return env


def run_tests(where: Path, tests: list[str], env: dict[str, str],
              timeout: float | None) -> tuple[str, float, str]:
    """"passed", "killed" or "timeout", the seconds it took and what pytest said."""
    started = time.monotonic()
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
               "--no-header", *tests]
    try:
        done = subprocess.run(command, cwd=where, env=env, capture_output=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - started, ""
    result = "passed" if done.returncode == 0 else "killed"
    if done.returncode == 5:
        raise SystemExit(f"pytest collected no tests from {tests}")
    return result, time.monotonic() - started, done.stdout.decode(errors="replace")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("module", help="the module to mutate, e.g. pbem/time/clock.py")
    parser.add_argument("tests", nargs="+", help="test files or folders that should notice")
    parser.add_argument("-n", "--mutants", type=int, default=50,
                        help="how many mutants to sample at most (default 50; 0: all)")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed (default 1)")
    parser.add_argument("-j", "--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="mutants tested at once, each in a copy of its own (default 2)")
    parser.add_argument("--postgres", action="store_true",
                        help="keep PBEM_TEST_DATABASE_URL: run the PostgreSQL variants too")
    parser.add_argument("--lines", default="",
                        help="only mutants on these lines, e.g. 40-60,75")
    parser.add_argument("--list", action="store_true",
                        help="only list the mutants that would be tested")
    args = parser.parse_args(argv)

    module = Path(args.module)
    relative = (module.resolve().relative_to(ROOT) if module.is_absolute()
                else module)
    source = (ROOT / relative).read_text()
    everything = mutants_of(source)
    if args.lines:
        wanted = set()
        for part in args.lines.split(","):
            first, _, last = part.partition("-")
            wanted.update(range(int(first), int(last or first) + 1))
        everything = [m for m in everything if m.line in wanted]
    rng = random.Random(args.seed)
    chosen = everything if args.mutants <= 0 or args.mutants >= len(everything) else \
        sorted(rng.sample(everything, args.mutants), key=lambda m: m.index)
    print(f"{relative}: {len(everything)} mutants, testing {len(chosen)} "
          f"(seed {args.seed}) with {' '.join(args.tests)}", flush=True)
    if args.list:
        for m in chosen:
            print("  " + m.describe(str(relative)))
        return 0

    env = _env(args.postgres)
    with tempfile.TemporaryDirectory(prefix="pbem-mutate-") as tmp:
        copies = []
        for j in range(max(1, args.jobs)):
            where = Path(tmp) / f"copy{j}"
            copy_tree(where)
            copies.append(where)
        baseline, seconds, said = run_tests(copies[0], args.tests, env, None)
        if baseline != "passed":
            print(said[-3000:], file=sys.stderr)
            print("the tests fail without any mutant: fix them first", file=sys.stderr)
            return 2
        timeout = max(60.0, 4 * seconds)
        print(f"the tests pass unchanged in {seconds:.0f}s; a mutant may take "
              f"{timeout:.0f}s", flush=True)

        free = list(copies)

        def test(mutant: Mutant) -> tuple[Mutant, str]:
            where = free.pop()
            target = where / relative
            try:
                target.write_text(mutated_source(source, mutant))
                result, _, _ = run_tests(where, args.tests, env, timeout)
            finally:
                target.write_text(source)
                free.append(where)
            return mutant, result

        survivors = []
        killed = 0
        with ThreadPoolExecutor(max_workers=len(copies)) as pool:
            for n, (mutant, result) in enumerate(pool.map(test, chosen), start=1):
                if result == "passed":
                    survivors.append(mutant)
                else:
                    killed += 1
                mark = "survived" if result == "passed" else result
                print(f"[{n}/{len(chosen)}] {mark:8} {mutant.describe(str(relative))}",
                      flush=True)

    score = 100 * killed / len(chosen) if chosen else 100.0
    print(f"\n{relative}: {killed} of {len(chosen)} mutants killed: score {score:.0f}%")
    if survivors:
        print("surviving mutants (no test noticed them):")
        for m in survivors:
            print("  " + m.describe(str(relative)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

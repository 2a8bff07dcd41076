"""``pbem tick``, ``pbem scheduler``, the cron wrapper, and one scheduler per deployment."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from time_helpers import player, table

from pbem.cli import main
from pbem.context import make_context
from pbem.models import Outbox, create_tables, db, open_database
from pbem.time import scheduler

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def env(tmp_path, monkeypatch):
    """A deployment in ``tmp_path``: settings by environment, a SQLite database with tables."""
    values = {"PBEM_SERVER_INSTANCE": str(tmp_path / "instance"),
              "PBEM_SERVER_BASE_URL": "http://pbem.test",
              "PBEM_ARCHIVE_SITE_DIR": str(tmp_path / "site"),
              "PBEM_CONFIG": str(tmp_path / "none.ini")}
    for key in list(os.environ):
        if key.startswith("PBEM_") or key == "DATABASE_URL":
            monkeypatch.delenv(key)
    for key, value in values.items():
        monkeypatch.setenv(key, value)
    ctx = make_context()
    open_database(ctx.config.database_url)
    create_tables()
    yield ctx
    db.close()


def test_pbem_tick_runs_one_tick_and_reports_it(env):
    anna = player("anna@example.de", "Anna", "Europe/Berlin")
    kenji = player("kenji@example.jp", "Kenji", "Asia/Tokyo")
    table(env, [anna, kenji], {"days": 3})
    due = Outbox.select().where(Outbox.sent_at.is_null()).count()
    result = CliRunner().invoke(main, ["tick", "--at", "2099-01-01T12:00:00+00:00"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["timeouts"] == 2  # in 2099 every clock has run out: grace periods begin
    # what was queued, and the grace notices the tick queued itself, went out in it
    assert report["mail"]["sent"] == due + 4
    assert not Outbox.select().where(Outbox.sent_at.is_null()).exists()
    assert len(list((env.config.instance_path / "mail").glob("*.eml"))) == report["mail"]["sent"]
    quiet = CliRunner().invoke(main, ["tick", "--quiet", "--at", "2099-01-01T12:00:00"])
    assert quiet.exit_code == 0 and quiet.output == ""


def test_tick_skips_while_the_deployments_scheduler_runs_and_a_second_scheduler_waits(
        env, monkeypatch):
    lock = scheduler.SchedulerLock(env)
    assert lock.acquire()
    monkeypatch.setenv("PBEM_SCHEDULER_LOCK_RETRY_SECONDS", "1")
    standby = None
    try:
        skipped = CliRunner().invoke(main, ["tick"])
        assert skipped.exit_code == 0 and "skipped" in skipped.output
        assert f"pid {os.getpid()}" in skipped.output
        forced = CliRunner().invoke(main, ["tick", "--force"])
        assert forced.exit_code == 0 and '"mail"' in forced.output
        # pbem serve beside the running scheduler: it waits instead of ticking...
        # (pbem scheduler does the same: tests/time/test_scheduler_lock.py)
        standby = scheduler.start_background(make_context())
        assert standby is not None and not standby.pbem_standby.holding
        lock.release()
        for _ in range(100):  # ...and takes over within the retry once the lock is free
            if standby.pbem_standby.holding:
                break
            time.sleep(0.05)
        assert standby.pbem_standby.holding
        # its ticks stopped, its lock still held: they share this process's database
        # connections, which the command opens anew (closing them under a running tick)
        standby.shutdown(wait=True)
        assert "skipped" in CliRunner().invoke(main, ["tick"]).output
    finally:
        lock.release()
        if standby is not None:
            if standby.running:
                standby.shutdown(wait=True)
            standby.pbem_lock.release()


def test_the_background_scheduler_has_one_stable_coalescing_job(env):
    background = scheduler.start_background(env)
    assert background is not None
    try:
        job = background.get_job(scheduler.JOB_ID)
        assert job.coalesce and job.max_instances == 1 and job.misfire_grace_time is None
        assert job.trigger.interval.total_seconds() == 60
        assert scheduler.start_background(env) is None  # the same process cannot start two
    finally:
        background.shutdown(wait=True)
        background.pbem_lock.release()
    assert scheduler.SchedulerLock(env).acquire()  # released with it


@pytest.mark.skipif(shutil.which("flock") is None or shutil.which("timeout") is None,
                    reason="the cron wrapper needs flock(1) and timeout(1) (util-linux, coreutils)")
def test_the_cron_wrapper_ticks_and_skips_while_a_previous_run_holds_its_lock(env, tmp_path):
    pbem_bin = Path(sys.executable).with_name("pbem")
    if not pbem_bin.exists():
        pytest.skip("the pbem command is not installed beside this Python")
    wrapper = ROOT / "cron" / "pbem-tick"
    run_env = {**os.environ, "PBEM_HOME": str(tmp_path), "PBEM_BIN": str(pbem_bin)}
    # no quiet hours: the wrapper's tick runs on the machine's real clock, and with the
    # default 22:00-08:00 both players sleep from 21:00 to 23:00 UTC, when no mail is due
    awake = {"quiet_start": "00:00", "quiet_end": "00:00"}
    anna = player("anna@example.de", "Anna", "Europe/Berlin", **awake)
    table(env, [anna, player("kenji@example.jp", "Kenji", "Asia/Tokyo", **awake)],
          {"days": 3})
    done = subprocess.run([str(wrapper)], env=run_env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert '"mail"' in done.stdout  # --quiet prints only when it did something
    lock = tmp_path / "instance" / "cron-tick.lock"
    with subprocess.Popen(["flock", str(lock), "sleep", "30"]) as holder:
        try:
            for _ in range(50):  # wait until the holder has the lock
                probe = subprocess.run(["flock", "-n", str(lock), "true"])
                if probe.returncode != 0:
                    break
            skipped = subprocess.run([str(wrapper)], env=run_env, capture_output=True,
                                     text=True, timeout=10)
            assert skipped.returncode == 0 and skipped.stdout == ""
        finally:
            holder.kill()
    crontab = (ROOT / "cron" / "crontab").read_text()
    assert "cron/pbem-tick" in crontab and "* * * * *" in crontab

#!/usr/bin/env python3
"""The spot interruption watcher (resources/scripts/gpuplan-watch.sh) against a loopback stand-in of each provider's
instance metadata service (metadata_standin.py; the real services are not reachable from here).

Each case runs the real watcher beside a stand-in training program in its own process group (what gpuplan-run.sh's
`job` gives a job: DIR/pid is the group, DIR/exit-code appears when it ends) and a push script that copies the
checkpoint folder into a temporary "bucket" folder. The cases run at once, in threads, so that the whole test takes
about 15 s; each test method then checks one case.

Usage: test_spot_watcher.py SOURCE_DIR [unittest arguments]
"""

import datetime
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import metadata_standin  # noqa: E402

SOURCE = os.path.abspath(sys.argv.pop(1)) if len(sys.argv) > 1 and os.path.isdir(sys.argv[1]) else \
    os.path.abspath(os.path.join(HERE, "..", "..", ".."))
WATCH = os.path.join(SOURCE, "resources", "scripts", "gpuplan-watch.sh")
POLL = 1
SYNC = 2
KEEP = os.environ.get("GPUPLAN_KEEP_TEST_DIRS") == "1"

# The training: a checkpoint file a second (written beside the folder, then moved in, as trainers do); on SIGUSR1 a
# checkpoint of its own, then GPUPLAN_CHECKPOINT_READY, then exit 75. With STEPS > 0 it ends by itself (exit 0).
TRAIN = r'''
import os, signal, sys, time
ckpt, log, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
ready = os.environ["GPUPLAN_CHECKPOINT_READY"]
got = []
signal.signal(signal.SIGUSR1, lambda s, f: got.append(s))
def save(name, text):
    tmp = os.path.join(os.path.dirname(ckpt), name + ".partial")
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, os.path.join(ckpt, name))
with open(log, "a", buffering=1) as out:
    out.write("training started, pid %d\n" % os.getpid())
    step = 0
    while steps == 0 or step < steps:
        step += 1
        save("step-%d.ckpt" % step, "periodic checkpoint at step %d\n" % step)
        for _ in range(10):
            if got:
                break
            time.sleep(0.1)
        if got:
            step += 1
            name = "step-%d.ckpt" % step
            save(name, "checkpoint on the signal at step %d\n" % step)
            out.write("got signal %s, wrote %s\n" % (signal.Signals(got[0]).name, name))
            with open(ready + ".tmp", "w") as f:
                f.write(name + "\n")
            os.replace(ready + ".tmp", ready)
            sys.exit(75)
    save("final.ckpt", "the model after %d steps\n" % steps)
    out.write("finished %d steps\n" % steps)
'''

PUSH = r'''#!/usr/bin/env bash
# The test's push: copies the checkpoint folder into the "bucket" folder and records when.
set -eu
start=$(date +%s.%N)
sleep {delay}
mkdir -p {bucket}
cp -a {ckpt}/. {bucket}/
echo "$start $(date +%s.%N)" >>{pushlog}
'''


def free_port():
    """A loopback port with nothing listening on it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_atomic(path, text):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return None


class Case:
    """One watcher run. Times in `events` are seconds after the start."""

    def __init__(self, name, provider, notice=None, rebalance_in=None, expire_tokens_in=None, sigterm_in=None,
                 unreachable=False, steps=0, conf_extra="", env=None, push_delay=0, limit=40):
        self.name, self.provider = name, provider
        self.notice, self.rebalance_in, self.expire_tokens_in = notice, rebalance_in, expire_tokens_in
        self.sigterm_in, self.unreachable, self.steps = sigterm_in, unreachable, steps
        self.conf_extra, self.env, self.push_delay, self.limit = conf_extra, env or {}, push_delay, limit
        self.error = None

    def run(self):
        try:
            self._run()
        except Exception as e:  # reported by the test method that checks this case
            self.error = "%s: %r" % (self.name, e)

    def _run(self):
        self.tmp = tempfile.mkdtemp(prefix="spotwatch-%s-" % self.name)
        self.dir = os.path.join(self.tmp, "run")
        self.ckpt = os.path.join(self.tmp, "checkpoints")
        self.bucket = os.path.join(self.tmp, "bucket")
        for d in (self.dir, self.ckpt):
            os.makedirs(d)
        self.standin = None
        if self.unreachable:
            url = "http://127.0.0.1:%d" % free_port()
        else:
            self.standin = metadata_standin.Standin(self.provider).start()
            url = self.standin.url
        train = os.path.join(self.tmp, "train.py")
        write_atomic(train, TRAIN)
        push = os.path.join(self.tmp, "push.sh")
        write_atomic(push, PUSH.format(delay=self.push_delay, bucket=shlex.quote(self.bucket), ckpt=shlex.quote(self.ckpt),
                                       pushlog=shlex.quote(os.path.join(self.tmp, "push-times"))))
        write_atomic(os.path.join(self.dir, "watch.conf"),
                     "provider=%s\nmetadata_url=%s\npoll_seconds=%d\nsync_seconds=%d\nsignal=USR1\n"
                     "checkpoint_dir=%s\npush=%s\n%s" % (self.provider, url, POLL, SYNC, self.ckpt, push,
                                                        self.conf_extra))
        env = dict(os.environ, GPUPLAN_CHECKPOINT_READY=os.path.join(self.dir, "checkpoint-ready"),
                   GPUPLAN_PREEMPT_FILE=os.path.join(self.dir, "preempt"))
        self.train_log = os.path.join(self.dir, "train.log")
        with open(os.path.join(self.dir, "output.log"), "w") as out:
            self.job = subprocess.Popen([sys.executable, train, self.ckpt, self.train_log, str(self.steps)],
                                        stdin=subprocess.DEVNULL, stdout=out, stderr=out, env=env,
                                        start_new_session=True)
        write_atomic(os.path.join(self.dir, "pid"), "%d\n" % self.job.pid)
        supervisor = threading.Thread(target=self._supervise, daemon=True)
        supervisor.start()
        with open(os.path.join(self.tmp, "watcher.out"), "w") as out:
            self.watcher = subprocess.Popen(["bash", WATCH, self.dir], stdin=subprocess.DEVNULL, stdout=out,
                                            stderr=out, start_new_session=True, env=dict(os.environ, **self.env))
        self.t0 = time.time()
        if self.notice:
            self.standin.raise_notice(**self.notice)
        if self.rebalance_in is not None:
            self.standin.raise_rebalance(self.rebalance_in)
        timers = []
        if self.expire_tokens_in is not None:
            timers.append(threading.Timer(self.expire_tokens_in, self._expire))
        if self.sigterm_in is not None:
            timers.append(threading.Timer(self.sigterm_in, self._sigterm))
        for t in timers:
            t.start()
        try:
            self.watcher_code = self.watcher.wait(timeout=self.limit)
        except subprocess.TimeoutExpired:
            self.watcher_code = "still running after %ds" % self.limit
            os.killpg(self.watcher.pid, signal.SIGKILL)
            self.watcher.wait()
        for t in timers:
            t.cancel()
        if self.job.poll() is None:
            os.killpg(self.job.pid, signal.SIGKILL)
        supervisor.join(10)
        self._collect()
        if self.standin:
            self.standin.stop()

    def _supervise(self):
        """What gpuplan-run.sh's job command does when the job ends: DIR/exit-code."""
        code = self.job.wait()
        write_atomic(os.path.join(self.dir, "exit-code"), "%d\n" % code)

    def _expire(self):
        self.expired_at = time.time()
        self.standin.expire_tokens()

    def _sigterm(self):
        self.sigterm_at = time.time()
        self.watcher.send_signal(signal.SIGTERM)

    def _collect(self):
        self.log = read(os.path.join(self.dir, "watch.log")) or ""
        self.train = read(self.train_log) or ""
        self.exit_code = (read(os.path.join(self.dir, "exit-code")) or "").strip()
        text = read(os.path.join(self.dir, "notice"))
        self.notice_file = None
        if text is not None:
            self.notice_file = dict(line.split(" ", 1) for line in text.splitlines())
        self.syncs = []
        for line in (read(os.path.join(self.dir, "syncs.csv")) or "").splitlines():
            start, end, reason, status, files = line.split(",")
            self.syncs.append({"start": int(start), "end": int(end), "reason": reason, "status": status,
                               "files": int(files)})
        self.state = self.standin.state() if self.standin else None
        self.requests = self.standin.recorded() if self.standin else []
        self.ckpt_files = sorted(os.listdir(self.ckpt))

    def describe(self):
        return "\n--- %s: watcher %s, job exit %r\n--- watch.log:\n%s--- train.log:\n%s--- syncs: %s\n" % (
            self.name, self.watcher_code, self.exit_code, self.log, self.train, self.syncs)

    def cleanup(self):
        if not KEEP and getattr(self, "tmp", None):
            shutil.rmtree(self.tmp, ignore_errors=True)


def notice(in_seconds=5, deadline_in=20, payload=None):
    return {"in_seconds": in_seconds, "deadline_in": deadline_in, "payload": payload}


CASES = [
    Case("aws", "aws", notice=notice(), expire_tokens_in=2.5),
    Case("aws_rebalance", "aws", rebalance_in=3, steps=9),
    Case("gcp", "gcp", notice=notice()),
    Case("azure", "azure", notice=notice()),
    Case("alibaba", "alibaba", notice=notice()),
    Case("tencent", "tencent", notice=notice()),
    Case("huawei", "huawei", sigterm_in=5),
    Case("aws_bad_json", "aws", notice=notice(4, payload="<html>Service Unavailable</html>"),
         conf_extra="lead_seconds=20\n"),
    Case("tencent_bad_time", "tencent", notice=notice(4, payload="soon"), conf_extra="lead_seconds=20\n"),
    # A push that takes 6 s: polling goes on meanwhile, and the notice cuts the periodic push short.
    Case("aws_slow_push", "aws", notice=notice(), push_delay=6),
    # The readers without python3 (sed and grep), as on an image that has none.
    Case("aws_no_python", "aws", notice=notice(), env={"GPUPLAN_WATCH_NO_PYTHON": "1"}),
    Case("azure_no_python", "azure", notice=notice(), env={"GPUPLAN_WATCH_NO_PYTHON": "1"}),
    Case("unreachable", "aws", unreachable=True, steps=7, conf_extra="signal=SIGNOPE\nfavourite_colour=blue\n"),
]


class SpotWatcherTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        assert os.path.isfile(WATCH), WATCH
        threads = [threading.Thread(target=c.run) for c in CASES]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        cls.cases = {c.name: c for c in CASES}

    @classmethod
    def tearDownClass(cls):
        for c in CASES:
            c.cleanup()

    def case(self, name):
        c = self.cases[name]
        if c.error:
            self.fail(c.error)
        return c

    # --- what every interruption must give ---------------------------------------------------------------------
    def check_interruption(self, c, kind="termination", deadline=None, noticed_at=None, periodic_before=True):
        info = c.describe()
        self.assertEqual(c.watcher_code, 0, info)
        n = c.notice_file
        self.assertIsNotNone(n, "no DIR/notice" + info)
        self.assertEqual(n["provider"], c.provider, info)
        self.assertEqual(n["kind"], kind, info)
        seen, dl = int(n["seen"]), int(n["deadline"])
        # Seen within a poll (and a second of slack) of when the stand-in began answering the notice.
        if noticed_at is None:
            noticed_at = c.state["notice_at"]
        self.assertGreater(seen, noticed_at - 1, info)
        self.assertLessEqual(seen, noticed_at + POLL + 1, info)
        if deadline is not None:
            self.assertEqual(dl, deadline(seen), info)
        self.assertEqual(read(os.path.join(c.dir, "preempt")).strip(), str(dl), info)
        signalled = dict(line.split(" ", 1) for line in read(os.path.join(c.dir, "signalled")).splitlines())
        self.assertEqual(signalled["signal"], "USR1", info)
        self.assertEqual(signalled["pgid"], str(c.job.pid), info)
        # The training got the signal, checkpointed and exited 75.
        m = re.search(r"got signal SIGUSR1, wrote (step-\d+\.ckpt)", c.train)
        self.assertIsNotNone(m, info)
        self.assertEqual(c.exit_code, "75", info)
        # The bucket holds the checkpoint written on the signal.
        self.assertEqual(read(os.path.join(c.bucket, m.group(1))), read(os.path.join(c.ckpt, m.group(1))), info)
        self.assertIn("checkpoint on the signal", read(os.path.join(c.bucket, m.group(1))), info)
        # Periodic pushes before the notice; the notice's push, ok, ended before the deadline, with every file.
        periodic = [s for s in c.syncs if s["reason"] == "periodic" and s["status"] == "ok" and s["end"] <= seen]
        if periodic_before:
            self.assertGreaterEqual(len(periodic), 1, info)
        pushes = [s for s in c.syncs if s["reason"] == "notice"]
        self.assertEqual(len(pushes), 1, info)
        self.assertEqual(pushes[0]["status"], "ok", info)
        self.assertGreaterEqual(pushes[0]["start"], seen, info)
        self.assertLess(pushes[0]["end"], dl, info)
        self.assertEqual(pushes[0]["files"], len(c.ckpt_files), info)
        self.assertEqual(sorted(os.listdir(c.bucket)), c.ckpt_files, info)
        return seen, dl, pushes[0]

    def test_aws(self):
        c = self.case("aws")
        self.check_interruption(c, deadline=lambda seen: c.state["deadline"])
        info = c.describe()
        self.assertEqual(c.notice_file["action"], "terminate", info)
        puts = [r for r in c.requests if r["method"] == "PUT"]
        gets = [r for r in c.requests if r["method"] == "GET"]
        self.assertTrue(gets, info)
        for r in puts:
            self.assertEqual(r["path"], "/latest/api/token", info)
            self.assertEqual(r["headers"].get("x-aws-ec2-metadata-token-ttl-seconds"), "21600", info)
        # The token on every metadata GET, each one the stand-in issued.
        for r in gets:
            self.assertIn(r["headers"].get("x-aws-ec2-metadata-token"), c.state["tokens"], r)
        # Tokens revoked at 2.5 s: refused once (401), renewed, and every GET after the renewal used the new one.
        self.assertGreaterEqual(len(puts), 2, info)
        self.assertIn("refused the token (HTTP 401)", c.log, info)
        renewal = [r for r in puts if r["time"] > c.expired_at][0]
        new_token = [t for t, v in c.state["tokens"].items() if not v["revoked"]]
        self.assertEqual(len(new_token), 1, info)
        for r in gets:
            if r["time"] > renewal["time"]:
                self.assertEqual(r["headers"]["x-aws-ec2-metadata-token"], new_token[0], r)
        paths = {r["path"] for r in gets}
        self.assertEqual(paths, {"/latest/meta-data/spot/instance-action",
                                 "/latest/meta-data/events/recommendations/rebalance"}, info)

    def test_aws_rebalance(self):
        c = self.case("aws_rebalance")
        info = c.describe()
        self.assertEqual(c.watcher_code, 0, info)
        # A recommendation, not an interruption: no notice, no signal; the job finished its steps.
        self.assertIsNone(c.notice_file, info)
        self.assertFalse(os.path.exists(os.path.join(c.dir, "signalled")), info)
        self.assertNotIn("got signal", c.train, info)
        self.assertIn("finished 9 steps", c.train, info)
        self.assertEqual(c.exit_code, "0", info)
        rec = dict(line.split(" ", 1) for line in read(os.path.join(c.dir, "rebalance")).splitlines())
        at = c.state["rebalance_at"]
        self.assertEqual(rec["notice_time"],
                         datetime.datetime.fromtimestamp(int(at), datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"))
        # Its push at once (within a poll), then the periodic ones go on.
        pushes = [s for s in c.syncs if s["reason"] == "rebalance"]
        self.assertEqual(len(pushes), 1, info)
        self.assertEqual(pushes[0]["status"], "ok", info)
        self.assertGreater(pushes[0]["start"], at - 1, info)
        self.assertLessEqual(pushes[0]["start"], at + POLL + 1, info)
        self.assertTrue([s for s in c.syncs if s["reason"] == "periodic" and s["start"] > pushes[0]["end"]], info)
        # Once seen, the recommendation is not asked for again.
        later = [r for r in c.requests if r["path"].endswith("/rebalance") and r["time"] > at + POLL + 1]
        self.assertEqual(later, [], info)
        # The job's end: the last state of the folder is in the bucket.
        self.assertEqual(sorted(os.listdir(c.bucket)), c.ckpt_files, info)

    def test_gcp(self):
        c = self.case("gcp")
        # No time in the payload: the deadline is GCP's documented 30 s after it was seen.
        self.check_interruption(c, deadline=lambda seen: seen + 30)
        info = c.describe()
        self.assertEqual(c.notice_file["action"], "preempt", info)
        self.assertEqual(c.notice_file["payload"], "TRUE", info)
        for r in c.requests:
            self.assertEqual(r["path"], "/computeMetadata/v1/instance/preempted", r)
            self.assertEqual(r["headers"].get("metadata-flavor"), "Google", r)

    def test_azure(self):
        c = self.case("azure")
        seen, dl, push = self.check_interruption(c, deadline=lambda seen: c.state["deadline"])
        info = c.describe()
        self.assertEqual(c.notice_file["action"], "preempt", info)
        for r in c.requests:
            self.assertEqual(r["path"], "/metadata/scheduledevents?api-version=2020-07-01", r)
            self.assertEqual(r["headers"].get("metadata"), "true", r)
        # Acknowledged once, with the event's id, after the checkpoint was pushed.
        acks = c.state["acks"]
        self.assertEqual(len(acks), 1, info)
        self.assertEqual(acks[0]["ids"], [c.state["event_id"]], info)
        self.assertGreaterEqual(acks[0]["time"], push["end"], info)
        posts = [r for r in c.requests if r["method"] == "POST"]
        self.assertEqual(json.loads(posts[0]["body"]), {"StartRequests": [{"EventId": c.state["event_id"]}]})
        self.assertIn("HTTP 200", c.log, info)

    def test_slow_push(self):
        c = self.case("aws_slow_push")
        info = c.describe()
        # check_interruption: the notice seen within a poll although a periodic push was running.
        seen, dl, push = self.check_interruption(c, deadline=lambda seen: c.state["deadline"], periodic_before=False)
        self.assertIn("push (periodic) in flight cut short for the notice's push", c.log, info)
        cut = [s for s in c.syncs if s["reason"] == "periodic" and s["status"] == "failed"]
        self.assertEqual(len(cut), 1, info)
        self.assertGreaterEqual(cut[0]["end"], seen, info)
        self.assertGreaterEqual(push["end"] - push["start"], 5, info)

    def test_without_python(self):
        aws = self.case("aws_no_python")
        self.check_interruption(aws, deadline=lambda seen: aws.state["deadline"])
        self.assertEqual(aws.notice_file["action"], "terminate", aws.describe())
        azure = self.case("azure_no_python")
        self.check_interruption(azure, deadline=lambda seen: azure.state["deadline"])
        self.assertEqual([a["ids"] for a in azure.state["acks"]], [[azure.state["event_id"]]], azure.describe())

    def test_alibaba(self):
        c = self.case("alibaba")
        self.check_interruption(c, deadline=lambda seen: c.state["deadline"])
        info = c.describe()
        gets = [r for r in c.requests if r["method"] == "GET"]
        for r in gets:
            self.assertEqual(r["path"], "/latest/meta-data/instance/spot/termination-time", r)
            self.assertIn(r["headers"].get("x-aliyun-ecs-metadata-token"), c.state["tokens"], r)
        puts = [r for r in c.requests if r["method"] == "PUT"]
        self.assertEqual(len(puts), 1, info)  # one token, kept
        self.assertEqual(puts[0]["headers"].get("x-aliyun-ecs-metadata-token-ttl-seconds"), "21600", info)

    def test_tencent(self):
        c = self.case("tencent")
        seen, dl, _ = self.check_interruption(c)
        info = c.describe()
        # The payload is Beijing time without a zone: read as UTC+8 it is the stand-in's deadline, 8 h off as UTC.
        payload = c.notice_file["payload"]
        self.assertRegex(payload, r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$", info)
        as_beijing = datetime.datetime.strptime(payload, "%Y-%m-%d %H:%M:%S").replace(
            tzinfo=metadata_standin.BEIJING).timestamp()
        self.assertEqual(dl, int(as_beijing), info)
        self.assertEqual(dl, c.state["deadline"], info)
        for r in c.requests:
            self.assertEqual(r["path"], "/latest/meta-data/spot/termination-time", r)

    def test_huawei_shutdown(self):
        c = self.case("huawei")
        # No in-guest notice is documented: nothing polled; SIGTERM to the watcher is the notice.
        self.check_interruption(c, kind="shutdown", deadline=lambda seen: seen + 25, noticed_at=c.sigterm_at)
        self.assertEqual(c.requests, [], c.describe())
        self.assertEqual(c.notice_file["action"], "-")
        self.assertEqual(c.notice_file["payload"], "SIGTERM to the watcher")

    def test_unparseable_json_is_a_notice(self):
        c = self.case("aws_bad_json")
        info = c.describe()
        self.check_interruption(c, deadline=lambda seen: seen + 20)
        self.assertIn("does not read (received: <html>Service Unavailable</html>)", c.log, info)
        self.assertEqual(c.notice_file["payload"], "<html>Service Unavailable</html>", info)

    def test_unparseable_time_is_a_notice(self):
        c = self.case("tencent_bad_time")
        info = c.describe()
        self.check_interruption(c, deadline=lambda seen: seen + 20)
        self.assertIn("does not read (received: soon)", c.log, info)

    def test_unreachable_service_is_no_notice(self):
        c = self.case("unreachable")
        info = c.describe()
        self.assertEqual(c.watcher_code, 0, info)
        self.assertIsNone(c.notice_file, info)
        self.assertNotIn("got signal", c.train, info)
        self.assertEqual(c.exit_code, "0", info)
        # Said once, however many polls failed.
        self.assertEqual(c.log.count("does not answer"), 1, info)
        # The periodic sync went on, and the job's end got its final push (unless, by a few milliseconds' chance,
        # a periodic one had already carried the last file).
        periodic = [s for s in c.syncs if s["reason"] == "periodic" and s["status"] == "ok"]
        self.assertGreaterEqual(len(periodic), 2, info)
        self.assertIn("final.ckpt", c.ckpt_files, info)
        self.assertEqual(sorted(os.listdir(c.bucket)), c.ckpt_files, info)
        self.assertEqual(c.syncs[-1]["files"], len(c.ckpt_files), info)
        self.assertEqual(c.syncs[-1]["status"], "ok", info)
        self.assertTrue(c.syncs[-1]["reason"] == "final" or periodic[-1] == c.syncs[-1], info)
        # watch.conf: a bad value is said and the default used; an unknown key is ignored.
        self.assertIn("signal=SIGNOPE is not a signal; the default is used", c.log, info)
        self.assertIn("signal USR1", c.log, info)
        self.assertIn("unknown key favourite_colour ignored", c.log, info)

    def test_help(self):
        out = subprocess.run(["bash", WATCH, "--help"], capture_output=True, text=True)
        self.assertEqual(out.returncode, 0)
        self.assertIn("gpuplan-watch.sh DIR", out.stdout)
        bad = subprocess.run(["bash", WATCH], capture_output=True, text=True)
        self.assertEqual(bad.returncode, 2)


if __name__ == "__main__":
    unittest.main(verbosity=2)

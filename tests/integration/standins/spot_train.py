#!/usr/bin/env python3
"""A stand-in of a spot-aware trainer (tests/integration/TestSpotRecovery.cpp), in Python as real trainers are (a bash
script cannot trap a signal that was ignored when it started, and the job ignores the notice's signal for everything
that installs no handler). Counts STEPS steps of 0.25 s and prints timm's progress line for each; writes a checkpoint
(the file step-N in $GPUPLAN_CHECKPOINT_DIR) every 5 steps; on $GPUPLAN_INTERRUPT_SIGNAL (or when
$GPUPLAN_PREEMPT_FILE appears) checkpoints at once, writes $GPUPLAN_CHECKPOINT_READY with the step and exits 75; at
start it resumes from the newest checkpoint and says so. Usage: spot_train.py STEPS
"""
import os
import signal
import sys
import time

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 40
folder = os.environ.get("GPUPLAN_CHECKPOINT_DIR", "checkpoints")
os.makedirs(folder, exist_ok=True)
notified = []
signal.signal(getattr(signal, "SIG" + os.environ.get("GPUPLAN_INTERRUPT_SIGNAL", "USR1")),
              lambda number, frame: notified.append(number))


def save(step):
    with open(os.path.join(folder, "step-%d.tmp" % step), "w") as f:
        f.write("%d\n" % step)
    os.replace(os.path.join(folder, "step-%d.tmp" % step), os.path.join(folder, "step-%d" % step))


done = [int(name[5:]) for name in os.listdir(folder) if name.startswith("step-") and name[5:].isdigit()]
start = max(done) if done else 0
if start:
    print("resumed from step %d" % start, flush=True)
preempt = os.environ.get("GPUPLAN_PREEMPT_FILE", "")
for step in range(start + 1, steps + 1):
    print("Train: 0 [%4d/%d (%3d%%)]  Loss: 6.900 (6.900)  Time: 0.250s,  512.00/s  (0.250s,  512.00/s)  LR: 1.000e-03"
          % (step, steps, step * 100 // steps), flush=True)
    time.sleep(0.25)
    if step % 5 == 0:
        save(step)
    if notified or (preempt and os.path.exists(preempt)):
        save(step)
        with open(os.environ["GPUPLAN_CHECKPOINT_READY"], "w") as f:
            f.write("%d\n" % step)
        print("checkpointed at step %d on the notice (signal %s)" % (step, "yes" if notified else "no"), flush=True)
        sys.exit(75)
save(steps)
print("done at step %d" % steps, flush=True)

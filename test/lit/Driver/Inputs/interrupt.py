"""Interrupts skc while it writes -o and checks that no temporary file stays.

Usage: interrupt.py RUNS OUTPUT_DIR SKC_ARGS...

Runs `SKC_ARGS... -o OUTPUT_DIR` RUNS times into a fresh directory, each time
sending SIGINT or SIGTERM after a delay that sweeps the run's duration, so
that some signals arrive while files are staged. Prints how many runs were
interrupted and how many left a `*.tmp-*` file; exits 1 if any did.
"""

import os
import shutil
import signal
import subprocess
import sys
import time

runs = int(sys.argv[1])
out = sys.argv[2]
command = sys.argv[3:] + ["-o", out]

start = time.monotonic()
subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
duration = time.monotonic() - start

interrupted = leftovers = 0
for i in range(runs):
    shutil.rmtree(out, ignore_errors=True)
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    time.sleep(duration * (0.3 + 0.7 * i / runs))
    process.send_signal(signal.SIGINT if i % 2 else signal.SIGTERM)
    if process.wait() < 0:
        interrupted += 1
    if os.path.isdir(out) and any(".tmp-" in f for f in os.listdir(out)):
        leftovers += 1
print(f"{runs} runs, {interrupted} interrupted, {leftovers} left temporaries")
sys.exit(1 if leftovers else 0)

#!/usr/bin/python3
"""A bare wake on the idle VM: a thread sleeps GAP seconds, then sets an Event another thread
waits on (a futex); prints the distribution of the time from set() to the waiter running.
    /usr/bin/python3 wakes.py N GAP"""
import sys
import threading
import time

N, GAP = int(sys.argv[1]), float(sys.argv[2])
event = threading.Event()
sets, wakes = [], []


def waiter():
    for _ in range(N):
        event.wait()
        wakes.append(time.perf_counter())
        event.clear()


thread = threading.Thread(target=waiter)
thread.start()
for _ in range(N):
    time.sleep(GAP)
    sets.append(time.perf_counter())
    event.set()
    while len(wakes) < len(sets):
        time.sleep(0)
thread.join()
d = sorted((w - s) * 1e3 for s, w in zip(sets, wakes))
n = len(d)
print(f"gap {GAP * 1e3:.1f} ms: wakes {n}, median {d[n // 2] * 1e3:.0f} us, p99 {d[int(.99 * (n - 1) + .5)]:.2f} ms, "
      f"max {d[-1]:.2f} ms, over 5 ms {sum(x > 5 for x in d)}")

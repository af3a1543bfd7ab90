"""Jobs for the sandbox tests, run in its worker processes: each payload says what to do."""

import os
import time


def prepare(payload):
    if payload[0] == "slow-prepare":
        time.sleep(payload[1])


def run(payload):
    what = payload[0]
    if what == "sleep":
        time.sleep(payload[1])
        return "slept"
    if what == "allocate":
        block = bytearray(payload[1] << 20)
        block[::4096] = b"x" * len(block[::4096])  # touch every page so it is resident
        time.sleep(30)
        return len(block)
    if what == "exit":
        os._exit(payload[1])
    if what == "raise":
        raise RuntimeError("the job failed")
    if what == "print":
        print("noise on stdout " * 100)
        return "clean"
    if what == "pid":
        return os.getpid()
    return what

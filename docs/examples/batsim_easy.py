#!/usr/bin/python3
"""An EASY-backfilling scheduler speaking Batsim's protocol (version 4).

It is a decision process as Batsim runs them: it listens on a ZeroMQ REP
socket, answers every message with its decisions, and stops after
SIMULATION_ENDS. schedsim plays Batsim's side:

    schedsim replay --scheduler-command \
        "/usr/bin/python3 docs/examples/batsim_easy.py --endpoint tcp://127.0.0.1:{port}"

Rules (those of schedsim's own `--queue fcfs --backfill easy`): jobs in
submission order; the head starts on the lowest-numbered free resources as
soon as it fits; when it does not, it reserves the lowest-numbered resources
free at its shadow time (the first expected end after which it fits), and a
later job starts now if it fits and either ends by the shadow or stays off
the head's reserved resources. --count reserves a number of resources
instead (interchangeable processors, schedsim's SWF pool model);
--no-backfill is plain FCFS. Only Debian's python3-zmq is needed.
"""

import argparse
import json
import sys

import zmq


def usec(seconds):
    """Times in whole microseconds, as schedsim counts them, compare exactly."""
    return round(seconds * 1e6)


def intervals(ids):
    """Batsim's interval set string of sorted ids: "0-3 7"."""
    out, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        out.append(str(ids[i]) if i == j else "%d-%d" % (ids[i], ids[j]))
        i = j + 1
    return " ".join(out)


class Easy:
    def __init__(self, backfill=True, count=False):
        self.backfill, self.count = backfill, count
        self.free = []          # free[r]: resource r is idle
        self.queue = []         # waiting jobs, in submission order
        self.running = {}       # job id -> job
        self.ended = False

    def on_event(self, ev):
        kind, data = ev["type"], ev["data"]
        if kind == "SIMULATION_BEGINS":
            self.free = [True] * data["nb_resources"]
        elif kind == "JOB_SUBMITTED":
            job, profile = data["job"], data.get("profile", {})
            walltime = job.get("walltime", -1)
            if walltime is None or walltime < 0:
                walltime = profile.get("delay")  # no walltime: the runtime
            if walltime is None:
                raise ValueError("job %s has neither walltime nor a delay profile" % data["job_id"])
            self.queue.append({"id": data["job_id"], "res": job["res"], "estimate": usec(walltime), "alloc": []})
        elif kind == "JOB_COMPLETED":
            job = self.running.pop(data["job_id"])
            for r in job["alloc"]:
                self.free[r] = True
        elif kind == "SIMULATION_ENDS":
            self.ended = True

    def nfree(self, avoid=()):
        return sum(1 for r, f in enumerate(self.free) if f and r not in avoid)

    def start(self, job, now, avoid=()):
        job["start"], job["alloc"] = now, []
        for r, f in enumerate(self.free):
            if len(job["alloc"]) == job["res"]:
                break
            if f and r not in avoid:
                job["alloc"].append(r)
                self.free[r] = False
        self.running[job["id"]] = job
        return job

    def reservation(self, now, head):
        """The head's shadow time, its reserved resources, and how many it leaves free then."""
        def end(j):
            return max(j["start"] + j["estimate"], now)
        avail, freed, shadow = self.nfree(), set(), None
        running = sorted(self.running.values(), key=lambda j: (end(j), j["id"]))
        i = 0
        while i < len(running) and avail < head["res"]:
            t = end(running[i])
            while i < len(running) and end(running[i]) == t:
                avail += len(running[i]["alloc"])
                freed.update(running[i]["alloc"])
                i += 1
            if avail >= head["res"]:
                shadow = t
        reserved = set()
        if shadow is not None:
            for r, f in enumerate(self.free):
                if len(reserved) == head["res"]:
                    break
                if f or r in freed:
                    reserved.add(r)
        return shadow, reserved, avail - head["res"]

    def schedule(self, now):
        started = []
        while self.queue and self.queue[0]["res"] <= self.nfree():
            started.append(self.start(self.queue.pop(0), now))
        if not self.backfill or len(self.queue) < 2:
            return started
        shadow, reserved, extra = self.reservation(now, self.queue[0])
        waiting = [self.queue[0]]
        for job in self.queue[1:]:
            ok = False
            if job["res"] <= self.nfree():
                if shadow is None or now + job["estimate"] <= shadow:
                    started.append(self.start(job, now))
                    ok = True
                elif self.count and job["res"] <= extra:
                    started.append(self.start(job, now))
                    extra -= job["res"]
                    ok = True
                elif not self.count and job["res"] <= self.nfree(reserved):
                    started.append(self.start(job, now, reserved))
                    ok = True
            if not ok:
                waiting.append(job)
        self.queue = waiting
        return started


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--endpoint", default="tcp://127.0.0.1:28000", help="ZeroMQ endpoint to listen on")
    p.add_argument("--count", action="store_true", help="reserve a number of resources, not specific ones")
    p.add_argument("--no-backfill", action="store_true", help="plain FCFS")
    args = p.parse_args()
    sched = Easy(backfill=not args.no_backfill, count=args.count)
    sock = zmq.Context().socket(zmq.REP)
    sock.bind(args.endpoint)
    messages = 0
    while not sched.ended:
        request = json.loads(sock.recv())
        messages += 1
        for ev in request["events"]:
            sched.on_event(ev)
        now = request["now"]
        events = []
        if not sched.ended:
            for job in sched.schedule(usec(now)):
                events.append({"timestamp": now, "type": "EXECUTE_JOB",
                               "data": {"job_id": job["id"], "alloc": intervals(job["alloc"])}})
        sock.send_string(json.dumps({"now": now, "events": events}))
    sock.close(linger=1000)
    print("batsim_easy.py: simulation ended after %d messages" % messages, file=sys.stderr)


if __name__ == "__main__":
    main()

"""CPU time of one run of the exactdp binary, shared by the parametric benchmarks (the machine is
shared, so wall time is not a measure)."""
import resource
import subprocess


def cpu_run(exe, args):
    """Runs ``exe args`` once; returns (the child's CPU seconds, user + system, process start
    included; the completed process with its output captured)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([exe, *args], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, p

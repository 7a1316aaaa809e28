# Sourced by scripts/long-run.sh and scripts/warmup-curve.sh: a JVM's CPU and context switches by thread kind, from
# /proc/<pid>/task/*/{stat,status}. Only live threads count: a compiler thread that exits takes its share with it.

# thread_jiffies PID: "all jit gc", utime + stime in jiffies (USER_HZ 100) of all threads, of the JIT compiler
# threads (C1/C2) and of the GC threads (G1*, GC*), by thread name (stat's "(comm)"; its fields follow it)
thread_jiffies() {
  awk '{ line = $0; sub(/^[0-9]+ \(/, "", line); name = substr(line, 1, index(line, ") ") - 1);
         sub(/^.*\) /, "", line); split(line, f, " "); j = f[12] + f[13]; all += j;
         if (name ~ /^C[12] /) jit += j; if (name ~ /^(G1|GC)/) gc += j }
       END { print all + 0, jit + 0, gc + 0 }' /proc/"$1"/task/*/stat 2>/dev/null
}

# context_switches PID: "voluntary involuntary", summed over all threads (voluntary: the thread blocked, e.g. a
# carrier parked for want of work; involuntary: it was preempted)
context_switches() {
  cat /proc/"$1"/task/*/status 2>/dev/null \
    | awk '/^voluntary_ctxt/ {v += $2} /^nonvoluntary_ctxt/ {n += $2} END {print v + 0, n + 0}'
}

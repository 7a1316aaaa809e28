/**
 * Profiling main-service under load with async-profiler (attached through jcmd) and summarising its collapsed stacks.
 */
package lab.fanout.bench.profile;

/**
 * Profiling main-service under load with async-profiler (loaded through the JDK Attach API) and summarising its
 * collapsed stacks.
 */
package lab.fanout.bench.profile;

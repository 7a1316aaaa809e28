/**
 * Runs each cell on a target (local JVMs, ./lab up, a remote URL) with a driver, repetition by repetition, and gives
 * its result and figures.
 */
package lab.fanout.bench.run;

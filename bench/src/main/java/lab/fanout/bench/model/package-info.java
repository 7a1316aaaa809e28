/**
 * Plain values every other package may use and that depend on nothing of the bench: strategies, statistics (Stats) and
 * the bound.
 */
package lab.fanout.bench.model;

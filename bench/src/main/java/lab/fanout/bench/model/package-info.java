/**
 * Plain values that depend on nothing of the bench: strategies, the services' defaults, a cell, what a driver and the
 * server measured, a cell's result with its figures and bound, and the statistics (Stats) behind them.
 */
package lab.fanout.bench.model;

/** Writes a run's report (results.csv, results.md and charts) from the cells' results alone. */
package lab.fanout.bench.report;

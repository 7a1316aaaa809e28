/** Writes a run's results (CSV, markdown, charts and the environment) from the cells' results alone. */
package lab.fanout.bench.report;

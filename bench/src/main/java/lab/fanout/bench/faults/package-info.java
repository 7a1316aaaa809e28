/**
 * The faults preset's failure-mode table: scenarios (one downstream failing or slow) instead of a matrix of cells,
 * each request's effects read from the services' own meters.
 */
package lab.fanout.bench.faults;

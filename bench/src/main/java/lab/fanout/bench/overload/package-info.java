/**
 * {@code ./lab bench --preset overload}: load past capacity in the open model, cells of its own because one may kill
 * main-service (docs/overload.md).
 */
package lab.fanout.bench.overload;

/** The bench matrix: presets and matrix files expand, block by block, into the cells to run. */
package lab.fanout.bench.matrix;

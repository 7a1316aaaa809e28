/**
 * The command line (picocli): "./lab up|down|status|bench|profile", options parsed here and handed to the layers
 * below; the only package that wires the others together.
 */
package lab.fanout.bench.cli;

/**
 * Load drivers (hey, ab, vegeta): each runs one load against a URL as an external process and gives what the client
 * saw.
 */
package lab.fanout.bench.driver;

/**
 * What the machine and the services measured during a run: CPU ticks from /proc and figures scraped from
 * /actuator/prometheus.
 */
package lab.fanout.bench.metrics;

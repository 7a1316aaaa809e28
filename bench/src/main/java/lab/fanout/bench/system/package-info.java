/**
 * The local machine and the lab's services on it: processes, ports, HTTP and polling, JVM and AOT options, starting
 * and stopping the services.
 */
package lab.fanout.bench.system;

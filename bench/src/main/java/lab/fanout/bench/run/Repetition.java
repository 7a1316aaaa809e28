package lab.fanout.bench.run;

import lab.fanout.bench.driver.DriverRun;
import lab.fanout.bench.driver.Load;
import lab.fanout.bench.metrics.ServerFigures;

/**
 * One measured run of a cell.
 *
 * @param index              1-based
 * @param load               what the driver was told
 * @param run                what it measured
 * @param server             main-service's figures meanwhile
 * @param machineBusyPercent the whole machine's CPU busy share meanwhile, %, or null
 * @param othersCpuPercent   the share of that busy with processes not ours (neither the harness, its services nor
 *                           the driver), %, or null
 */
public record Repetition(int index, Load load, DriverRun run, ServerFigures server, Double machineBusyPercent,
                         Double othersCpuPercent) {
}

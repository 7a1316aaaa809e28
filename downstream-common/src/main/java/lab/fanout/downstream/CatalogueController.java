package lab.fanout.downstream;

import jakarta.validation.Valid;

import lab.fanout.common.Simulation;

import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET {path}} and {@code GET {path}/{id}}: the catalogue, after the simulated latency.
 * Request threads are virtual (see downstream-defaults.yml), so a sleeping request holds no platform thread.
 */
@RestController
class CatalogueController {

    private final Catalogue catalogue;
    private final DownstreamProperties properties;
    private final DownstreamMetrics metrics;

    CatalogueController(Catalogue catalogue, DownstreamProperties properties, DownstreamMetrics metrics) {
        this.catalogue = catalogue;
        this.properties = properties;
        this.metrics = metrics;
    }

    @GetMapping(path = "${downstream.path}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> all(@Valid Simulation simulation) throws InterruptedException {
        simulateIo(simulation);
        return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(catalogue.all());
    }

    @GetMapping(path = "${downstream.path}/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<byte[]> one(@PathVariable String id, @Valid Simulation simulation) throws InterruptedException {
        simulateIo(simulation);
        return catalogue.byId(id)
                .map(item -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(item))
                .orElseThrow(() -> new UnknownIdException(properties.path(), id));
    }

    private void simulateIo(Simulation simulation) throws InterruptedException {
        metrics.simulateIo(simulation.delay(properties.latency(), properties.jitter()));
    }
}

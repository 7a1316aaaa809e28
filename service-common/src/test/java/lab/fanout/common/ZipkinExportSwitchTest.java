package lab.fanout.common;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/** Spans go to Zipkin only where an endpoint is given; an explicit switch still wins. */
class ZipkinExportSwitchTest {

    @Test
    void turnsTheExportOffWithoutAnEndpoint() {
        assertThat(exportEnabled(Map.of())).isEqualTo("false");
    }

    @Test
    void leavesTheExportOnWithAnEndpoint() {
        assertThat(exportEnabled(Map.of(ZipkinExportSwitch.ENDPOINT, "http://127.0.0.1:9411/api/v2/spans"))).isNull();
    }

    @Test
    void anExplicitSettingWins() {
        assertThat(exportEnabled(Map.of(ZipkinExportSwitch.ENABLED, "true"))).isEqualTo("true");
    }

    private static String exportEnabled(Map<String, Object> configured) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("configured", configured));
        new ZipkinExportSwitch().postProcessEnvironment(environment, new SpringApplication());
        return environment.getProperty(ZipkinExportSwitch.ENABLED);
    }
}

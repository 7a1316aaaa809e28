package lab.fanout.main.web;

import org.springframework.test.context.ActiveProfiles;

/** Admission control on the {@code netty} profile: every test of {@link AdmissionIntegrationTest}, on Reactor Netty. */
@ActiveProfiles(value = "netty", inheritProfiles = false)
class NettyAdmissionIntegrationTest extends AdmissionIntegrationTest {
}

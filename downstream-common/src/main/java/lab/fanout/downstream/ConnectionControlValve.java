package lab.fanout.downstream;

import java.io.IOException;

import jakarta.servlet.ServletException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.coyote.ActionCode;

/**
 * Reaches below the servlet API into Tomcat's connection (Coyote) for {@link ConnectionControl}:
 * {@code ActionCode.AVAILABLE} with {@code true} makes Tomcat try a non-blocking read, and reports data as
 * "available" when that read fails or hits end-of-stream; {@code ActionCode.CLOSE_NOW} drops the response and closes
 * the connection (a FIN, not a reset: Tomcat does not set SO_LINGER 0).
 */
final class ConnectionControlValve extends ValveBase {

    static final String ATTRIBUTE = ConnectionControl.class.getName();

    ConnectionControlValve() {
        super(true);
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        org.apache.coyote.Request coyote = request.getCoyoteRequest();
        request.setAttribute(ATTRIBUTE, new ConnectionControl() {
            @Override
            public boolean callerHasClosed() {
                coyote.action(ActionCode.AVAILABLE, Boolean.TRUE);
                return coyote.getAvailable() > 0;
            }

            @Override
            public void closeNow() {
                response.getCoyoteResponse().action(ActionCode.CLOSE_NOW, null);
            }
        });
        getNext().invoke(request, response);
    }
}

package lab.fanout.downstream;

import jakarta.servlet.http.HttpServletRequest;

/**
 * The two things about its TCP connection a servlet cannot see or do by itself, offered by
 * {@link ConnectionControlValve} as a request attribute.
 */
interface ConnectionControl {

    /**
     * @return true if the caller has closed or reset the connection: a non-blocking read finds end-of-stream or an
     * error. Only meaningful for requests without a body (our GETs), whose connection carries nothing else until
     * the response is written.
     */
    boolean callerHasClosed();

    /** Closes the connection now, writing nothing more: the caller sees end-of-stream (or a reset if it was sending). */
    void closeNow();

    /** @throws IllegalStateException outside Tomcat (e.g. MockMvc), where the valve does not run */
    static ConnectionControl of(HttpServletRequest request) {
        if (request.getAttribute(ConnectionControlValve.ATTRIBUTE) instanceof ConnectionControl control) {
            return control;
        }
        throw new IllegalStateException("connection control needs Tomcat's " + ConnectionControlValve.class.getSimpleName());
    }
}

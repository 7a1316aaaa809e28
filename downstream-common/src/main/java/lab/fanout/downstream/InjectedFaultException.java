package lab.fanout.downstream;

import lab.fanout.common.Problems;

import org.springframework.http.HttpStatusCode;
import org.springframework.web.ErrorResponseException;

/** The error a request's {@code errorRate}/{@code errorStatus} (or {@code downstream.faults.*}) asked for. */
class InjectedFaultException extends ErrorResponseException {

    InjectedFaultException(int status) {
        super(HttpStatusCode.valueOf(status), Problems.of(HttpStatusCode.valueOf(status),
                Problems.type("injected-fault"), "Injected fault",
                "This error was injected on purpose (errorRate/errorStatus or downstream.faults.*)."), null);
    }
}

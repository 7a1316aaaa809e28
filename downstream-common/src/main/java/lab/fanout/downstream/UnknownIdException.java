package lab.fanout.downstream;

import java.net.URI;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.ErrorResponseException;

/** 404 problem+json for an id the catalogue does not hold. */
class UnknownIdException extends ErrorResponseException {

    UnknownIdException(String path, String id) {
        super(HttpStatus.NOT_FOUND, problem(path, id), null);
    }

    private static ProblemDetail problem(String path, String id) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
                "No item has id '" + id + "'; GET " + path + " lists them all.");
        problem.setType(URI.create("https://fanout-lab.dev/problems/unknown-id"));
        problem.setTitle("Unknown id");
        return problem;
    }
}

package lab.fanout.common;

import java.io.IOException;
import java.util.Collections;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * 400 problem+json for an {@code Accept} header that is not a list of media types. Without it Spring MVC answers
 * 406 with an empty body: it cannot choose a representation for the problem when it cannot read what the client
 * accepts. The problem itself is rendered by {@link ProblemErrorReportValve}.
 */
public class AcceptHeaderFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        for (String accept : Collections.list(request.getHeaders(HttpHeaders.ACCEPT))) {
            try {
                MediaType.parseMediaTypes(accept);
            } catch (InvalidMediaTypeException e) {
                response.sendError(HttpServletResponse.SC_BAD_REQUEST,
                        "Accept: '" + accept + "' is not a list of media types; send application/json");
                return;
            }
        }
        chain.doFilter(request, response);
    }
}

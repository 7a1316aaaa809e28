# a fake downstream on 127.0.0.1: answers at once, except that requests arriving in [1.0 s, 2.0 s) after the first
# one are held until 2.0 s (a 1 s stall of the whole server)
import http.server, threading, time, sys
t0 = None
lock = threading.Lock()
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        global t0
        with lock:
            now = time.monotonic()
            if t0 is None: t0 = now
        el = now - t0
        if 1.0 <= el < 2.0:
            time.sleep(2.0 - el)
        body = b"ok"
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
threading.Timer(20, s.shutdown).start()
s.serve_forever()

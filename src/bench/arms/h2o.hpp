// bench/arms/h2o.hpp — the h2o arm (Debian h2o): an HTTP/1.1 and HTTP/2 server
// people deploy, a web server arm (web_server.hpp). `hello` is GET /health
// answered "ok" from a static file of those two bytes ({tmpdir}/health: h2o's
// own fast path for a fixed body, its file handler with its open-file cache;
// nginx's is `return 200`), one event-loop thread per server CPU
// (`num-threads`), HTTP/2 over cleartext with prior knowledge (h2c) on the same
// port as HTTP/1.1. Its row's hooks are h2o_hooks (h2o.cpp).
#pragma once

#include <cstddef>
#include <string>

namespace bench {

// h2o.conf for a server listening on `host`:{port} with `threads` threads,
// serving `dir` (where the hello file is), running as {user}, no access log.
std::string h2o_conf(const std::string& dir, const std::string& host, std::size_t threads);

}  // namespace bench
